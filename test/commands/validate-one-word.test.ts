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

  it("a parking under a contract without the parking API: the error, not its distance from that contract's stations", async () => {
    const source = await fixtureCopy();
    const path = join(source, "parkings.json");
    const parkings = JSON.parse(await readFile(path, "utf8"));
    // Nantes #89, in Rezé, 462 km from Toulouse's stations.
    parkings.parkings[0].contract = "toulouse";
    await writeFile(path, JSON.stringify(parkings, null, 2));
    const result = await runCli(["validate", "--source", source]);
    expect(result.code).toBe(1);
    expect(problemsOf(result.stderr).filter((line) => line.includes("toulouse #89"))).toEqual([
      expect.stringMatching(/contract: contract "toulouse" does not offer the parking API/),
    ]);
    // Nor does it move the middle Toulouse's own stations are measured from.
    expect(result.stderr).toContain(
      "(toulouse #1033) latitude: 44.869297, 0.547885 is 158 km from the middle of its contract's others (43.602, 1.445)",
    );
  });

  it("stations on an unknown contract: their errors, not their distances from each other's middle", async () => {
    const source = await fixtureCopy();
    const csv = join(source, "stations.csv");
    const text = await readFile(csv, "utf8");
    await writeFile(csv, text.replaceAll("\ntoulouse,", "\ntolouse,"));
    const result = await runCli(["validate", "--all", "--source", source]);
    expect(result.code).toBe(1);
    const said = problemsOf(result.stderr).filter((line) => line.includes("(tolouse #"));
    expect(said).toHaveLength(287);
    expect(said.every((line) => line.includes('contract: unknown contract "tolouse"'))).toBe(true);
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
