// A number past what a field takes is said as the source writes it (never 1e+23) with the range
// the field takes in plain words, in a CSV and in a JSON source alike, through `validate`.
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixtureCopy, runCli } from "../helpers.js";

const RANGE = "must be a whole number from 0 to 2,147,483,647 (at most 10 digits)";
const REASON = "the original service's clients read it as a 32-bit integer";

async function errorsOf(source: string): Promise<string[]> {
  const result = await runCli(["validate", "--source", source]);
  expect(result.code).toBe(1);
  expect(result.stderr).not.toMatch(/e\+\d/);
  return result.stderr
    .split("\n")
    .filter((line) => line.startsWith("  error: "))
    .map((line) => line.replace(`${source}/`, ""));
}

describe("validate shows a big number as written, with the range it must be in", () => {
  it("in stations.csv: a 15-digit and a 23-digit number, a 23-digit capacity", async () => {
    const source = await fixtureCopy();
    const csv = join(source, "stations.csv");
    const text = await readFile(csv, "utf8");
    await rm(join(source, "states.json")); // it has states of dublin #42 and #30
    await writeFile(
      csv,
      text
        .replace("\ndublin,42,", "\ndublin,123456789012345,")
        .replace(
          /\ndublin,30,(.*),20,/,
          "\ndublin,12345678901234567890123,$1,98765432109876543210987,",
        ),
    );
    expect(await errorsOf(source)).toEqual([
      `  error: stations.csv:2 (dublin #123456789012345) number: ${RANGE}, got 123456789012345: ${REASON}`,
      `  error: stations.csv:3 (dublin #12345678901234567890123) number: ${RANGE}, got 12345678901234567890123: ${REASON}`,
      `  error: stations.csv:3 (dublin #12345678901234567890123) capacity: ${RANGE}, got 98765432109876543210987: ${REASON}`,
    ]);
  });

  it("in stations.json and states.json: a 23-digit number and a 20-digit count of bikes", async () => {
    const source = await fixtureCopy();
    const header = (await readFile(join(source, "stations.csv"), "utf8")).split("\n")[0];
    await rm(join(source, "stations.csv"));
    expect(header).toMatch(/^contract,number,/);
    const station = (number: string) =>
      `{"contract":"dublin","number":${number},"name":"A","address":"B","latitude":53.35,"longitude":-6.27,"banking":false,"bonus":false,"overflow":false,"capacity":30}`;
    await writeFile(
      join(source, "stations.json"),
      `{"stations":[${station("42")},${station("12345678901234567890123")}]}`,
    );
    const states = JSON.parse(await readFile(join(source, "states.json"), "utf8"));
    const dublin42 = states.states.find((s: { number: number }) => s.number === 42);
    const text = JSON.stringify({ states: [dublin42] }).replace(
      /"bikes":\d+/,
      '"bikes":99999999999999999999',
    );
    await writeFile(join(source, "states.json"), text);
    const errors = await errorsOf(source);
    expect(errors).toContain(
      `  error: stations.json[1] (dublin #12345678901234567890123) number: ${RANGE}, got 12345678901234567890123: ${REASON}`,
    );
    expect(errors).toContain(
      `  error: states.json[0] (dublin #42) mainStands.bikes: ${RANGE}, got 99999999999999999999: ${REASON}`,
    );
  });
});
