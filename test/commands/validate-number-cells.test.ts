// A number cell of stations.csv written otherwise than velodata reads or publishes it, through
// `validate`: said for what it is, with the number to write, and over a whole contract as one
// mistake (its first lines, then a count).
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { besidesFixtureWarning, fixtureCopy, runCli } from "../helpers.js";

const COLUMNS = [
  "contract",
  "number",
  "name",
  "address",
  "latitude",
  "longitude",
  "banking",
  "bonus",
  "overflow",
  "capacity",
  "overflowCapacity",
];

/** A copy of the fixtures whose stations.csv has `column` of `contract`'s rows changed by `change`. */
async function cellsChanged(contract: string, column: string, change: (cell: string) => string) {
  const source = await fixtureCopy();
  const path = join(source, "stations.csv");
  const lines = (await readFile(path, "utf8")).split("\r\n");
  const at = COLUMNS.indexOf(column);
  const changed = lines.map((line) => {
    // The fixtures' Dublin rows have no quoted cell: split on commas, they keep their columns.
    const cells = line.split(",");
    if (cells[0] !== contract) return line;
    cells[at] = change(cells[at] as string);
    return cells.join(",");
  });
  await writeFile(path, changed.join("\r\n"));
  return { source, path };
}

/** The lines of stderr that are problems of one kind: `  error: …` or `  warning: …`. */
const problemsOf = (stderr: string, kind: "error" | "warning"): string[] =>
  stderr
    .split("\n")
    .filter((line) => line.trimStart().startsWith(`${kind}: `))
    .map((line) => line.trimStart());

describe("validate says a number cell written with a space inside", () => {
  it("every Dublin capacity with a French spreadsheet's thousands: 3 errors and a count of the rest", async () => {
    // 30 stands written as 1 030: a thousand more, so that each reads as thousands parted.
    const { source, path } = await cellsChanged(
      "dublin",
      "capacity",
      (capacity) => `1\u00a0${capacity.padStart(3, "0")}`,
    );
    const validated = await runCli(["validate", "--source", source]);
    expect(validated.code).toBe(1);
    expect(validated.stderr).toContain("velodata: the source data has 114 errors\n");
    const errors = problemsOf(validated.stderr, "error");
    expect(errors).toHaveLength(4);
    expect(errors[0]).toBe(
      `error: ${path}:2 (dublin #42) capacity: expected a whole number, got "1\u00a0030": a no-break space inside the number, as a thousands separator (a French spreadsheet's); write 1030`,
    );
    expect(errors[3]).toBe(
      `error: ${path}:5–115 capacity: the same in 111 more records (114 in all): expected a whole number, got "…": a no-break space inside the number, as a thousands separator (a French spreadsheet's); write …`,
    );
  });
});

describe("validate says a station number written otherwise than it is published", () => {
  it("every Dublin number padded with zeros: 3 warnings and a count of the rest, still valid", async () => {
    const { source, path } = await cellsChanged("dublin", "number", (number) =>
      number.padStart(4, "0"),
    );
    const validated = await runCli(["validate", "--source", source]);
    expect(validated.code).toBe(0);
    const warnings = besidesFixtureWarning(problemsOf(validated.stderr, "warning"));
    expect(warnings).toHaveLength(4);
    expect(warnings[0]).toBe(
      `warning: ${path}:2 (dublin #42) number: written "0042", published as 42: numbers are published without leading zeros (clients ask for station 42); write 42 if that is the station's number`,
    );
    expect(warnings[3]).toBe(
      `warning: ${path}:5–115 number: the same in 111 more records (114 in all): written "…", published as …: numbers are published without leading zeros (clients ask for station …); write … if that is the station's number`,
    );
    expect(validated.stdout).toMatch(/ is valid: .* \(116 warnings\)\n$/);
  });
});
