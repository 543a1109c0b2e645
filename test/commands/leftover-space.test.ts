// A refresh or build that finds no room after handing a stopped build's release folder to a remover: that
// folder may be what filled the disk (a killed build's half tree), and its space comes back by
// itself, which "free some space" alone does not tell.
import { statfsSync } from "node:fs";
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers.js";
import { tmpfsMount } from "../tmpfs.js";

const disk = await tmpfsMount("8m");

const here = disk ?? ""; // unused when no tmpfs can be mounted: the suite is skipped
const source = join(here, "source");
const out = join(here, "out");
const releases = join(here, ".out.velodata", "releases");

/** What a build killed half way leaves: a release folder beside the served one. Returns the served. */
async function stoppedBuildsFolder(): Promise<string[]> {
  await mkdir(join(releases, "0-stopped", "tree"), { recursive: true });
  await writeFile(join(releases, "0-stopped", "tree", "a.json"), "[]");
  return (await readdir(releases)).filter((name) => name !== "0-stopped");
}

/** Runs `args` with a few pages left: room for the lock and the move aside, none for the files. */
async function onFullDisk(args: string[]) {
  const { bavail, bsize } = statfsSync(here);
  await writeFile(join(here, "fill"), Buffer.alloc(Math.max(0, (bavail - 4) * bsize)));
  try {
    return await runCli(args);
  } finally {
    await rm(join(here, "fill"), { force: true });
  }
}

const LEFTOVER_SAID =
  "  1 release folder a stopped build left was handed to a remover as this run began: if it held that space, the next run finds it free";

describe.skipIf(!disk)("out of space beside a stopped build's leftovers", () => {
  beforeAll(async () => {
    const synth = await runCli(["synth", "--stations", "200", "--minutes", "1", "--out", source]);
    expect(synth.code, synth.stderr).toBe(0);
    const built = await runCli(["build", "--source", source, "--out", out]);
    expect(built.code, built.stderr).toBe(0);
  });

  // A build replaces the tree; a refresh updates it: both meet the full disk after the hand-over.
  it.each(["refresh", "build"])(
    "%s says the leftovers may hold the space, and leaves the tree",
    async (command) => {
      const served = await stoppedBuildsFolder();
      const states = join(source, "states-1.json");
      const run = await onFullDisk([command, "--source", source, "--state", states, "--out", out]);
      expect(run.code).toBe(1);
      // Its warnings aside, and the note that a synthetic source has no portal.json.
      const lines = run.stderr.split("\n").filter((line) => !/^(warning|portal): /.test(line));
      expect(lines[0]).toMatch(
        /^velodata: cannot write the tree at .*\/out: no space left on the device .*; the tree served there is unchanged$/,
      );
      expect(lines.slice(1)).toEqual([
        LEFTOVER_SAID,
        "  free some space, then run the command again",
        "",
      ]);
      expect(await readdir(releases)).toEqual(served);
    },
  );
});
