// `velodata keys` on a keys file reached through symbolic links, and past a lock left behind.
import { spawn } from "node:child_process";
import { lstat, mkdir, readdir, readFile, readlink, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hashKey } from "../../src/serve/keys/key-file.js";
import { runCli, tempDir } from "../helpers.js";

const storedKeys = async (file: string) =>
  JSON.parse(await readFile(file, "utf8")).keys as {
    id: string;
    sha256: string;
    revoked: string;
  }[];

describe("velodata keys through links", () => {
  it("adds and revokes in the file a symlink points to, and leaves the link a link", async () => {
    const dir = await tempDir();
    await mkdir(join(dir, "real"));
    const real = join(dir, "real", "keys.json");
    const link = join(dir, "keys.json");
    await symlink("real/keys.json", link);

    const added = await runCli(["keys", "add", "--keys", link]);
    expect(added.code, added.stderr).toBe(0);
    expect(await readlink(link)).toBe("real/keys.json");
    const [key] = await storedKeys(real);
    expect(key?.sha256).toBe(hashKey(added.stdout.trim()));

    const revoked = await runCli(["keys", "revoke", key?.id as string, "--keys", link]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect((await storedKeys(real))[0]?.revoked).toMatch(/Z$/);
    // The temporary file and the lock went beside the real file, and are gone.
    expect(await readdir(join(dir, "real"))).toEqual(["keys.json"]);
    expect((await readdir(dir)).sort()).toEqual(["keys.json", "real"]);
  });

  it("refuses a keys file that is a symlink loop, in one line, and leaves it as it is", async () => {
    const dir = await tempDir();
    const loop = join(dir, "keys.json");
    await symlink("keys.json", loop);
    for (const args of [["add"], ["list"], ["revoke", "abcdef01"]]) {
      const result = await runCli(["keys", ...args, "--keys", loop]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `velodata: the keys file ${loop} is a symbolic link that leads back to itself (a loop): point it at the real keys file, or remove it\n`,
      );
    }
    expect(await readlink(loop)).toBe("keys.json");
  });

  it("takes over a lock left by a dead process even when it ends with a newline", async () => {
    const file = join(await tempDir(), "keys.json");
    const dead = spawn(process.execPath, ["-e", ""]);
    await new Promise((resolve) => dead.on("exit", resolve));
    await writeFile(`${file}.lock`, `${dead.pid}\n`);
    // Not taken over, the lock is waited on until the command gives up and fails.
    const result = await runCli(["keys", "add", "--keys", file]);
    expect(result.code, result.stderr).toBe(0);
    expect(await readdir(join(file, ".."))).toEqual(["keys.json"]);
  });
});
