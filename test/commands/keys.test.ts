import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hashKey } from "../../src/serve/keys/key-file.js";
import { runCli, tempDir } from "../helpers.js";

describe("velodata keys", () => {
  it("adds a 40-hex key printed once, stores only its hash with mode 0600, lists and revokes it", async () => {
    const file = join(await tempDir(), "keys.json");
    const added = await runCli(["keys", "add", "--keys", file, "--label", "city app"]);
    expect(added.code).toBe(0);
    const key = added.stdout.trim();
    expect(key).toMatch(/^[0-9a-f]{40}$/);
    expect(added.stderr).toContain("shown only this once");

    const stored = await readFile(file, "utf8");
    expect(stored).not.toContain(key);
    expect(stored).toContain(hashKey(key));
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const listed = await runCli(["keys", "list", "--keys", file]);
    const [, row] = listed.stdout.trim().split("\n");
    const [id, , revoked, label] = (row as string).split("\t");
    expect([revoked, label]).toEqual(["-", "city app"]);
    expect(listed.stdout).not.toContain(key);

    expect((await runCli(["keys", "revoke", id as string, "--keys", file])).code).toBe(0);
    expect((await runCli(["keys", "list", "--keys", file])).stdout).not.toMatch(/\t-\tcity app/);
  });

  it("says which id is unknown when revoking", async () => {
    const file = join(await tempDir(), "keys.json");
    await runCli(["keys", "add", "--keys", file]);
    const result = await runCli(["keys", "revoke", "deadbeef", "--keys", file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`no key with id deadbeef in ${file}`);
  });
});
