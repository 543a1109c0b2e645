// A file system with room for bytes but for no more files: `df -h` shows space free, so "no space
// left" alone sends the operator looking for bytes that are not the missing resource.
import { mkdir, readdir } from "node:fs/promises";
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
