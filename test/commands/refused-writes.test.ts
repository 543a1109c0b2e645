// Writing commands on a read-only file system name the path given, not a file of their own.
import { execFileSync } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers.js";

// A read-only mount needs root with the right capability (as update-tree.test.ts's full disk).
const disk = await (async () => {
  const dir = join(await tempDir(), "disk");
  await mkdir(dir);
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", dir], { stdio: "ignore" });
    return dir;
  } catch {
    return null;
  }
})();
afterAll(() => {
  if (disk) execFileSync("umount", [disk]);
});

const readOnly = (on: boolean) =>
  execFileSync("mount", ["-o", `remount,${on ? "ro" : "rw"}`, disk as string]);

describe.skipIf(!disk)("on a read-only file system", () => {
  it("synth says its --out is on one, whether that folder exists or not", async () => {
    const here = disk as string;
    readOnly(false);
    await mkdir(join(here, "empty"));
    readOnly(true);
    for (const out of [join(here, "empty"), join(here, "source"), join(here, "new/source")]) {
      const result = await runCli(["synth", "--stations", "5", "--out", out]);
      expect([result.code, result.stderr]).toEqual([
        1,
        `velodata: --out ${out} is on a read-only file system: choose another place\n`,
      ]);
    }
  });

  it("keys add and revoke say the keys file is on one, not their lock or temporary file", async () => {
    const file = join(disk as string, "keys.json");
    readOnly(false);
    expect((await runCli(["keys", "add", "--keys", file])).code).toBe(0);
    const listed = await runCli(["keys", "list", "--keys", file]);
    const id = listed.stdout.split("\n")[1]?.split("\t")[0] as string;
    readOnly(true);
    const onReadOnly = `velodata: the keys file ${file} is on a read-only file system: choose another place\n`;
    const added = await runCli(["keys", "add", "--keys", file]);
    expect([added.code, added.stderr]).toEqual([1, onReadOnly]);
    const revoked = await runCli(["keys", "revoke", id, "--keys", file]);
    expect([revoked.code, revoked.stderr]).toEqual([1, onReadOnly]);
  });
});
