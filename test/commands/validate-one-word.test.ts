// One mistake, one word: what a single fault in a source says through `validate`, and nothing
// more (no echo of it from a second rule, no line per station for one empty file).
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixtureCopy, runCli } from "../helpers.js";

/** The lines of stderr that are problems: `  error: …` and `  warning: …`. */
const problemsOf = (stderr: string): string[] =>
  stderr.split("\n").filter((line) => /^\s*(error|warning): /.test(line));

describe("validate says one fault once", () => {
  it("an oversized count: one error, its bound, not a second about 2^53", async () => {
    const source = await fixtureCopy();
    const csv = join(source, "stations.csv");
    const text = await readFile(csv, "utf8");
    await writeFile(
      csv,
      text.replace(/\ntoulouse,55,(.*),15,\r/, "\ntoulouse,55,$1,100000000000000000000,\r"),
    );
    const result = await runCli(["validate", "--source", source]);
    expect(result.code).toBe(1);
    const errors = problemsOf(result.stderr).filter((line) => line.includes("error: "));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /\(toulouse #55\) capacity: must be a whole number from 0 to 2,147,483,647 \(at most 10 digits\), got 100000000000000000000:/,
    );
  });

  it("a station on an unknown contract: the error, without a 'no state' warning echoing it", async () => {
    const source = await fixtureCopy();
    const csv = join(source, "stations.csv");
    const text = await readFile(csv, "utf8");
    // Dublin #42 has a state in the fixtures: under a misspelt contract it finds none.
    await writeFile(csv, text.replace("\ndublin,42,", "\ndubllin,42,"));
    const result = await runCli(["validate", "--source", source]);
    expect(result.code).toBe(1);
    const problems = problemsOf(result.stderr).filter((line) => line.includes("dubllin #42"));
    expect(problems).toEqual([expect.stringMatching(/contract: unknown contract "dubllin"/)]);
  });

  it("an empty states list: one warning naming the file, not one per station", async () => {
    const source = await fixtureCopy();
    const states = join(source, "states.json");
    await writeFile(states, '{"states": []}\n');
    const result = await runCli(["validate", "--source", source]);
    expect(result.code).toBe(0);
    const said = problemsOf(result.stderr).filter((line) => !line.includes("158 km"));
    expect(said).toEqual([
      `warning: ${states}: has no states: every station is published as CLOSED and disconnected, with lastUpdate null`,
    ]);
  });
});
