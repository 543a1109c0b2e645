// A refresh stopped by SIGINT or SIGTERM says what it leaves, then ends as the signal ends it; once
// it has begun to move its files into the tree, the stop waits for the moves and the seal.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, watch } from "node:fs";
import { open, readFile, readlink } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, fixtureCopy, runCli, tempDir } from "../helpers.js";

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function started(args: readonly string[]) {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, FORCE_COLOR: "0" },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const ended = new Promise<Ended>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, ended };
}

/** The tree's store folder of the release served at `out`. */
const releaseFolder = async (out: string) =>
  join(out, "..", (await readlink(out)).replace(/\/tree$/, ""));

describe("a refresh stopped by a signal", () => {
  it("says the tree is unchanged when stopped before it changes it", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const before = await readFile(join(out, "vls/v3/stations.json"));
    // A states file that is a pipe: the refresh is under way once it opens it to read.
    const pipe = join(source, "states.pipe");
    execFileSync("mkfifo", [pipe]);
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      const refresh = started(["refresh", "--source", source, "--state", pipe, "--out", out]);
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

  it("finishes moving its files in and seals the tree before it ends, when stopped meanwhile", async () => {
    // 5,000 stations, each changed the next minute: ~10,000 files to move in, a window of tens of
    // milliseconds however loaded the machine.
    const dir = await tempDir();
    const source = join(dir, "source");
    const out = join(dir, "out");
    const synth = await runCli([
      ...["synth", "--stations", "5000", "--changed", "1", "--minutes", "1"],
      ...["--start", "now", "--out", source],
    ]);
    expect(synth.code).toBe(0);
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const states = join(source, "states-1.json");
    const folder = await releaseFolder(out);
    const refresh = started(["refresh", "--source", source, "--state", states, "--out", out]);
    // The dirty mark appears as the first file is about to move: the process is frozen there (or
    // a moment later), given the stop, and let go.
    const watcher = watch(folder, (_, name) => {
      if (name !== "dirty.json") return;
      watcher.close();
      refresh.child.kill("SIGSTOP");
      refresh.child.kill("SIGTERM");
      refresh.child.kill("SIGCONT");
    });
    const ended = await refresh.ended.finally(() => watcher.close());
    expect([ended.code, ended.signal]).toEqual([null, "SIGTERM"]);
    expect(ended.stdout).toMatch(/^refreshed /);
    expect(ended.stderr).toBe(
      `velodata: SIGTERM: refresh stopped once its files were in; the tree at ${out} is the new release, whole\n`,
    );
    expect(existsSync(join(folder, "dirty.json"))).toBe(false);
    // Whole and sealed: the same states again change nothing and repair nothing.
    const again = await runCli(["refresh", "--source", source, "--state", states, "--out", out]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      /^refreshed .*: 0 of \d+ answers changed, static source unchanged/,
    );
  });
});
