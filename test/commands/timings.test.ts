import { readFile, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type CliResult,
  dublin42ReportedAt,
  fixtureCopy,
  refreshArgs,
  runCli,
  tempDir,
} from "../helpers.js";

const TOOK =
  /^took (\d+\.\d\d) s: read \+ validate (\d+\.\d\d) s, render (\d+\.\d\d) s, compress (\d+\.\d\d) s, write (\d+\.\d\d) s$/m;

/** A velodata command line, and how long its process took from spawn to exit (s). */
async function timed(args: string[]): Promise<{ result: CliResult; wall: number }> {
  const started = performance.now();
  const result = await runCli(args);
  return { result, wall: (performance.now() - started) / 1000 };
}

const timedRefresh = (source: string, out: string, extra: string[] = []) =>
  timed(refreshArgs(source, out, ...extra));

/** The line's total and steps; its steps add up to its total, which is the process's time. */
function tookOf(stdout: string, wall: number) {
  const found = TOOK.exec(stdout);
  if (!found) throw new Error(`no timings in: ${stdout}`);
  const [total, read, render, compress, write] = found.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  // Each step printed rounded to 0.01 s.
  expect(Math.abs(read + render + compress + write - total)).toBeLessThanOrEqual(0.025);
  // Counted from the process's start (Node's own and the modules' loading are a minute's cost too),
  // not from the command's: all of its time but its exit.
  expect(total).toBeLessThanOrEqual(wall);
  expect(total).toBeGreaterThan(wall / 2);
  return { total, read, render, compress, write };
}

describe("velodata refresh --timings", () => {
  it("says where the process's time went, on the fast path and on a refresh that renders everything", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const states = join(source, "states.json");
    const original = await readFile(states, "utf8");
    await writeFile(states, dublin42ReportedAt(original, "2025-02-08T16:59:00Z"));

    const fast = await timedRefresh(source, out, ["--timings"]);
    expect(fast.result.code).toBe(0);
    expect(fast.result.stdout).toMatch(/only the changed stations rendered/);
    // After the summary line, on stdout with it.
    expect(fast.result.stdout.trim().split("\n").at(-1)).toMatch(TOOK);
    const quick = tookOf(fast.result.stdout, fast.wall);
    // Starting Node and loading the modules alone takes some of the first step; the splice some
    // of the render.
    expect(quick.read).toBeGreaterThan(0);
    expect(quick.render).toBeGreaterThan(0);

    // A file of the tree changed by hand: the fast path reads the states, then gives up on the
    // trust test and renders everything. Its time is counted once, in the steps it reached.
    await utimes(join(out, "vls/v3/contracts.json"), new Date(), new Date());
    await writeFile(states, original);
    const fallback = await timedRefresh(source, out, ["--timings"]);
    expect(fallback.result.code).toBe(0);
    expect(fallback.result.stdout).not.toMatch(/only the changed stations rendered/);
    tookOf(fallback.result.stdout, fallback.wall);

    // A changed static source: everything read and rendered again.
    const stations = join(source, "stations.csv");
    await writeFile(
      stations,
      (await readFile(stations, "utf8")).replace("SMITHFIELD NORTH", "SMITHFIELD"),
    );
    const full = await timedRefresh(source, out, ["--timings"]);
    expect(full.result.code).toBe(0);
    expect(full.result.stdout).not.toMatch(/only the changed stations rendered/);
    const whole = tookOf(full.result.stdout, full.wall);
    // 413 stations' answers and the static ones, rendered, compressed and written.
    expect(whole.render).toBeGreaterThan(0);
    expect(whole.compress).toBeGreaterThan(0);
    expect(whole.write).toBeGreaterThan(0);

    // Said only when asked.
    const plain = await timedRefresh(source, out);
    expect(plain.result.code).toBe(0);
    expect(plain.result.stdout).toMatch(/refreshed /);
    expect(plain.result.stdout).not.toMatch(/took /);
  });
});

describe("velodata build --timings", () => {
  it("says where the process's time went, a replaced release's removal included", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    const build = ["build", "--source", source, "--out", out];
    for (const run of ["first", "replacing"]) {
      const { result, wall } = await timed([...build, "--timings"]);
      expect(result.code, run).toBe(0);
      // After the summary line, on stdout with it.
      expect(result.stdout.trim().split("\n").at(-2), run).toMatch(/^built /);
      expect(result.stdout.trim().split("\n").at(-1), run).toMatch(TOOK);
      const took = tookOf(result.stdout, wall);
      expect(took.read, run).toBeGreaterThan(0);
      expect(took.render, run).toBeGreaterThan(0);
      expect(took.write, run).toBeGreaterThan(0);
    }

    const plain = await timed(build);
    expect(plain.result.code).toBe(0);
    expect(plain.result.stdout).toMatch(/built /);
    expect(plain.result.stdout).not.toMatch(/took /);
  });
});
