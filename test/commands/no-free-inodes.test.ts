// A file system with room for bytes but for no more files: `df -h` shows space free, so "no space
// left" alone sends the operator looking for bytes that are not the missing resource.
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { besidesFixtureWarning, FIXTURES, runCli } from "../helpers.js";
import { tmpfsMount } from "../tmpfs.js";

// 20 MB, ample for the fixtures' tree, but 100 files and folders, far fewer than its ~2,000.
const disk = await tmpfsMount("20m", 100);

describe.skipIf(!disk)("a build on a file system out of inodes", () => {
  it("says it could not make a file there, inodes included, and leaves nothing", async () => {
    const parent = join(disk as string, "site");
    await mkdir(parent);
    const out = join(parent, "out");
    const result = await runCli(["build", "--source", FIXTURES, "--out", out]);
    expect(result.code).toBe(1);
    const lines = besidesFixtureWarning(result.stderr).trimEnd().split("\n");
    expect(lines[0]).toMatch(
      new RegExp(
        `^velodata: cannot write the tree at ${out}: no space left on the device for a new file: its free inodes or blocks ran out \\(open \\S+\\); nothing is published there yet$`,
      ),
    );
    expect(lines.slice(1)).toEqual([
      "  free some space or remove some files (df -i shows the inodes left), then run the command again",
    ]);
    expect(await readdir(parent)).toEqual([]);
  });
});

/** Files made in `folder` until the file system refuses one: no inode left, bytes to spare. */
async function takeEveryInode(folder: string): Promise<void> {
  await mkdir(folder);
  for (let at = 0; ; at++) {
    const made = await writeFile(join(folder, String(at)), "").then(
      () => true,
      (cause: NodeJS.ErrnoException) => {
        if (cause.code !== "ENOSPC") throw cause;
        return false;
      },
    );
    if (!made) return;
  }
}

describe.skipIf(!disk)("keys and synth on a file system out of inodes", () => {
  it("say it has no inode free, not that space is lacking, which df -h shows free", async () => {
    const here = join(disk as string, "keys");
    await mkdir(here);
    const file = join(here, "keys.json");
    expect((await runCli(["keys", "add", "--keys", file])).code).toBe(0);
    const fill = join(disk as string, "fill");
    await takeEveryInode(fill);
    try {
      const added = await runCli(["keys", "add", "--keys", file]);
      expect([added.code, added.stderr]).toEqual([
        1,
        `velodata: no free inodes left on the device of the keys file ${file}: it holds as many files as it can, though df -h may show space free; remove some files (df -i shows the inodes left) and run it again\n`,
      ]);
      const out = join(here, "source");
      const synthed = await runCli(["synth", "--stations", "20", "--out", out]);
      expect([synthed.code, synthed.stderr]).toEqual([
        1,
        `velodata: no free inodes left on the device of --out ${out}: it holds as many files as it can, though df -h may show space free; remove some files (df -i shows the inodes left) and run it again\n`,
      ]);
    } finally {
      await rm(fill, { recursive: true, force: true });
    }
    // Files removed: it works again.
    expect((await runCli(["keys", "add", "--keys", file])).code).toBe(0);
  });
});
