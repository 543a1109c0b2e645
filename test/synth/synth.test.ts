import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { memoryOutput } from "../../src/commands/output.js";
import { synth } from "../../src/commands/synth.js";
import { validate } from "../../src/commands/validate.js";
import { type CliResult, runCli, tempDir } from "../helpers.js";

const FILES = ["contracts.json", "stations.json", "parkings.json", "states.json", "states-1.json"];

async function written(options: { seed: number; changed?: number }): Promise<string> {
  const out = join(await tempDir(), "source");
  await synth({ stations: 600, contracts: 5, minutes: 2, out, output: memoryOutput(), ...options });
  return out;
}

const read = (dir: string, file: string) => readFile(join(dir, file), "utf8");
const statesOf = async (dir: string, file: string) =>
  (JSON.parse(await read(dir, file)) as { states: unknown[] }).states.map((state) =>
    JSON.stringify(state),
  );

describe("synth", () => {
  it("writes the same files for the same seed, and others for another seed", async () => {
    const [one, two, other] = await Promise.all([
      written({ seed: 7 }),
      written({ seed: 7 }),
      written({ seed: 8 }),
    ]);
    for (const file of FILES) expect(await read(two, file), file).toBe(await read(one, file));
    expect(await read(other, "stations.json")).not.toBe(await read(one, "stations.json"));
  });

  it("refuses a folder that already holds a source, and changes nothing in it", async () => {
    const out = await written({ seed: 7 });
    const before = await read(out, "stations.json");
    await expect(
      synth({ stations: 100, contracts: 1, out, output: memoryOutput() }),
    ).rejects.toThrow(
      `${out} already holds a source (contracts.json, parkings.json, states-1.json, states-2.json, …): give a new or empty folder (or remove it first)`,
    );
    expect(await read(out, "stations.json")).toBe(before);
  });

  it("refuses a folder that holds other files, writing nothing in it", async () => {
    const out = await tempDir();
    await writeFile(join(out, "notes.txt"), "mine");
    await expect(
      synth({ stations: 100, contracts: 1, out, output: memoryOutput() }),
    ).rejects.toThrow(
      `${out} is not empty (notes.txt): give a new or empty folder for the network`,
    );
    expect(await readdir(out)).toEqual(["notes.txt"]);
  });

  it("writes a source folder that validates with every minute's states", async () => {
    const out = await written({ seed: 3 });
    for (const state of ["states.json", "states-1.json", "states-2.json"]) {
      const output = memoryOutput();
      await validate({ source: out, state: join(out, state), output });
      expect(output.lines.join("\n")).toContain("is valid: 5 contracts, 600 stations, 600 states");
    }
  });

  it("has accents, overflow stands and parkings, as real networks do", async () => {
    const out = await written({ seed: 3 });
    expect(await read(out, "stations.json")).toMatch(/[éèÉÈñöåçô]/);
    expect(await read(out, "states.json")).toMatch(/"overflowStands":\{/);
    expect(
      (JSON.parse(await read(out, "parkings.json")) as { parkings: [] }).parkings.length,
    ).toBeGreaterThan(0);
  });

  it.each([0.1, 0.25])(
    "changes exactly %s of the stations from one minute to the next",
    async (changed) => {
      const out = await written({ seed: 5, changed });
      for (const [before, after] of [
        ["states.json", "states-1.json"],
        ["states-1.json", "states-2.json"],
      ] as const) {
        const a = await statesOf(out, before);
        const b = await statesOf(out, after);
        expect(b).toHaveLength(a.length);
        expect(b.filter((state, index) => state !== a[index]).length).toBe(
          Math.round(600 * changed),
        );
      }
    },
  );
});

describe("synth --start", () => {
  const lastUpdates = async (dir: string, file: string) =>
    (JSON.parse(await read(dir, file)) as { states: { lastUpdate: string }[] }).states.map(
      (state) => Date.parse(state.lastUpdate),
    );

  async function synthCli(...args: string[]): Promise<{ out: string; result: CliResult }> {
    const out = join(await tempDir(), "source");
    const result = await runCli([
      "synth",
      "--stations",
      "200",
      "--minutes",
      "1",
      ...args,
      "--out",
      out,
    ]);
    return { out, result };
  }

  it("reports the first minute's states at the time given, the next a minute after", async () => {
    const { out, result } = await synthCli("--start", "2026-02-01T10:00:00+01:00");
    expect(result.stderr).toBe("");
    const start = Date.parse("2026-02-01T09:00:00Z");
    const first = await lastUpdates(out, "states.json");
    expect(Math.max(...first)).toBeLessThanOrEqual(start);
    expect(Math.min(...first)).toBeGreaterThanOrEqual(start - 5 * 60_000);
    expect(Math.max(...(await lastUpdates(out, "states-1.json")))).toBe(start + 60_000);
  });

  it("with now, writes states a cron refresh publishes as a live feed's, not a stalled one's", async () => {
    const stalled = /is the feed stalled/;
    for (const [start, warned] of [
      [["--start", "now"], false],
      [[], true], // the fixed default time, long past
    ] as const) {
      const { out } = await synthCli(...start);
      const tree = join(await tempDir(), "tree");
      expect((await runCli(["build", "--source", out, "--out", tree])).code).toBe(0);
      const refresh = await runCli([
        ...["refresh", "--source", out, "--out", tree],
        ...["--state", join(out, "states-1.json")],
      ]);
      expect(refresh.code).toBe(0);
      expect(stalled.test(refresh.stderr), refresh.stderr).toBe(warned);
    }
  });

  it("refuses a time it cannot read, saying what it takes", async () => {
    const { result } = await synthCli("--start", "yesterday");
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      "--start <time>' argument 'yesterday' is invalid. must be now or an ISO 8601 time with its offset",
    );
  });
});
