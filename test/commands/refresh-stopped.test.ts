// A refresh stopped by SIGINT or SIGTERM says what it leaves, then ends as the signal ends it; once
// it has begun to move its files into the tree, the stop waits for the moves, the seal and the
// next run's state.
import { execFileSync } from "node:child_process";
import { existsSync, watch } from "node:fs";
import { open, readFile, readlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { build } from "../../src/commands/build.js";
import { memoryOutput } from "../../src/commands/output.js";
import { refresh } from "../../src/commands/refresh.js";
import { STOP_SIGNALS } from "../../src/commands/said-when-stopped.js";
import {
  BIN,
  besidesFixtureWarning,
  type Ended,
  fixtureCopy,
  runCli,
  startedProcess,
  tempDir,
} from "../helpers.js";

/** The tree's store folder of the release served at `out`. */
const releaseFolder = async (out: string) =>
  join(out, "..", (await readlink(out)).replace(/\/tree$/, ""));

describe("a refresh stopped by a signal", () => {
  it("leaves no handler of its own behind when run in a process, done or failed", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    await build({ source, out, output: memoryOutput() });
    const handlers = () => STOP_SIGNALS.map((signal) => process.listenerCount(signal));
    const before = handlers();
    const states = join(source, "states.json");
    await refresh({ source, state: states, out, output: memoryOutput() });
    expect(handlers()).toEqual(before);
    await expect(
      refresh({ source, state: join(source, "none.json"), out, output: memoryOutput() }),
    ).rejects.toThrow(/none\.json/);
    expect(handlers()).toEqual(before);
  });

  it("says the tree is unchanged when stopped before it changes it", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const before = await readFile(join(out, "vls/v3/stations.json"));
    // A states file that is a pipe: the refresh is under way once it opens it to read.
    const pipe = join(source, "states.pipe");
    execFileSync("mkfifo", [pipe]);
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      const refresh = startedProcess(process.execPath, [
        BIN,
        "refresh",
        "--source",
        source,
        "--state",
        pipe,
        "--out",
        out,
      ]);
      const writer = await open(pipe, "w");
      try {
        refresh.child.kill(signal);
        const ended = await refresh.ended;
        expect([ended.code, ended.signal]).toEqual([null, signal]);
        expect(ended.stderr).toBe(
          `velodata: ${signal}: refresh stopped; the tree at ${out} is unchanged\n`,
        );
      } finally {
        await writer.close();
      }
      expect(await readFile(join(out, "vls/v3/stations.json"))).toEqual(before);
    }
  });

  it("finishes moving its files in, seals the tree and saves its state before it ends, on the fast and the full path", async () => {
    // 5,000 stations, each changed every minute: ~10,000 files to move in, a window of tens of
    // milliseconds however loaded the machine.
    const dir = await tempDir();
    const source = join(dir, "source");
    const out = join(dir, "out");
    const synth = await runCli([
      ...["synth", "--stations", "5000", "--changed", "1", "--minutes", "3"],
      ...["--start", "now", "--out", source],
    ]);
    expect(synth.code).toBe(0);
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const folder = await releaseFolder(out);
    const refreshTo = (minute: number) => [
      ...["refresh", "--source", source, "--state", join(source, `states-${minute}.json`)],
      ...["--out", out],
    ];

    // Minute 1 on the fast path; minute 2 with a station renamed: everything rendered again.
    for (const minute of [1, 2]) {
      if (minute === 2) await renameFirstStation(source);
      const ended = await stoppedAtTheMoves(refreshTo(minute), folder, ["SIGTERM"]);
      expect([ended.code, ended.signal], `minute ${minute}`).toEqual([null, "SIGTERM"]);
      // Minute 2 reads the static source anew: its note of no portal.json, as a build's.
      expect(besidesFixtureWarning(ended.stderr), `minute ${minute}`).toBe(
        `velodata: SIGTERM: refresh stopped once its files were in; the tree at ${out} is the new release, whole\n`,
      );
      expect(existsSync(join(folder, "dirty.json"))).toBe(false);
      // Whole, sealed, and its state saved: the same states again change nothing, repair
      // nothing, and take the fast path.
      const again = await runCli(refreshTo(minute));
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(
        /^refreshed .*: 0 of \d+ answers changed, static source unchanged: only the changed stations rendered/,
      );
    }

    // A second stop does not wait: the tree is left marked, and the next run repairs it.
    const twice = await stoppedAtTheMoves(refreshTo(3), folder, ["SIGTERM", "SIGINT"]);
    expect(["SIGTERM", "SIGINT"]).toContain(twice.signal);
    expect(twice.stderr).toBe(
      `velodata: ${twice.signal}: refresh stopped while moving its files in; the tree at ${out} is partly updated and marked so: the next refresh or build repairs it\n`,
    );
    expect(existsSync(join(folder, "dirty.json"))).toBe(true);
    const repaired = await runCli(refreshTo(3));
    expect(repaired.code).toBe(0);
    expect(repaired.stdout).toMatch(/every file checked/);
    expect(existsSync(join(folder, "dirty.json"))).toBe(false);
  }, 120_000);
});

/**
 * Runs the command, and as the dirty mark appears (the first file is about to move) freezes the
 * process there (or a moment later), gives it the signals and lets it go.
 */
async function stoppedAtTheMoves(
  args: readonly string[],
  folder: string,
  signals: readonly NodeJS.Signals[],
): Promise<Ended> {
  const run = startedProcess(process.execPath, [BIN, ...args]);
  const watcher = watch(folder, (_, name) => {
    if (name !== "dirty.json") return;
    watcher.close();
    run.child.kill("SIGSTOP");
    for (const signal of signals) run.child.kill(signal);
    run.child.kill("SIGCONT");
  });
  return run.ended.finally(() => watcher.close());
}

/** The source's first station under another name: a changed static source. */
async function renameFirstStation(source: string): Promise<void> {
  const path = join(source, "stations.json");
  const file = JSON.parse(await readFile(path, "utf8")) as { stations: { name: string }[] };
  (file.stations[0] as { name: string }).name += " (renamed)";
  await writeFile(path, JSON.stringify(file));
}
