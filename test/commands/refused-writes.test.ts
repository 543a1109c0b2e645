// Writing commands refused by the file system (read-only, full) name the path given, not a file of
// their own, and leave none of theirs behind.
import { execFileSync } from "node:child_process";
import { statfsSync } from "node:fs";
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { addKey } from "../../src/serve/keys/key-file.js";
import { runCli } from "../helpers.js";
import { tmpfsMount } from "../tmpfs.js";

const disk = await tmpfsMount("1m");

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

describe.skipIf(!disk)("on a full file system", () => {
  it("keys add and synth say the place given is full, and leave no lock or partial file", async () => {
    const here = disk as string;
    readOnly(false);
    const file = join(here, "keys.json");
    expect((await runCli(["keys", "add", "--keys", file])).code).toBe(0);
    // The rest of the 1 MB filled: the next file written gets no block.
    await writeFile(join(here, "fill"), Buffer.alloc(2 << 20)).catch(() => {});
    try {
      const before = await readdir(here);
      const added = await runCli(["keys", "add", "--keys", file]);
      expect([added.code, added.stderr]).toEqual([
        1,
        `velodata: no space left on the device of the keys file ${file}: free some space and run it again\n`,
      ]);
      const out = join(here, "source");
      const synthed = await runCli(["synth", "--stations", "2000", "--out", out]);
      expect([synthed.code, synthed.stderr]).toEqual([
        1,
        `velodata: no space left on the device of --out ${out}: free some space and run it again\n`,
      ]);
      // No lock of keys add's, nothing of synth's but the folder it made: a next synth there runs.
      expect((await readdir(here)).filter((name) => !before.includes(name))).toEqual(["source"]);
      expect(await readdir(out)).toEqual([]);
    } finally {
      await rm(join(here, "fill"), { force: true });
    }
  });
});

describe.skipIf(!disk)("on a nearly full file system", () => {
  it("keys add leaves no part of the keys file it could not write", async () => {
    const here = join(disk as string, "nearly");
    readOnly(false);
    await mkdir(here);
    const file = join(here, "keys.json");
    // A keys file of several pages: its next version cannot fit in the one page left.
    for (let n = 0; n < 40; n++)
      await addKey(file, `reader number ${n} of the open data`, new Date());
    const { bavail, bsize } = statfsSync(here);
    const fill = join(disk as string, "fill");
    await writeFile(fill, Buffer.alloc(Math.max(0, (bavail - 1) * bsize)));
    try {
      const before = await readdir(here);
      const added = await runCli(["keys", "add", "--keys", file]);
      expect([added.code, added.stderr]).toEqual([
        1,
        `velodata: no space left on the device of the keys file ${file}: free some space and run it again\n`,
      ]);
      expect(await readdir(here)).toEqual(before);
    } finally {
      await rm(fill, { force: true });
    }
  });
});

describe("where mkdir cannot make a folder (under /proc)", () => {
  it("synth ends with an error instead of trying again for ever", async () => {
    const out = `/proc/velodata-test-${process.pid}/source`;
    const result = await runCli(["synth", "--stations", "5", "--out", out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^velodata: \/proc\/velodata-test-\d+ does not exist/);
  });
});
