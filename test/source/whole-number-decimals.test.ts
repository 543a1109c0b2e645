// A count written with zero decimals, as a spreadsheet formats a number cell: the same whole
// number whichever locale wrote the CSV ("20.0" with ",", "20,0" with ";").
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { describe, expect, it } from "vitest";
import { formatProblem, type Problem } from "../../src/source/problems.js";
import { readDataset } from "../../src/source/read-dataset.js";
import { fixtureCopy } from "../helpers.js";

/** The fixtures' stations.csv with station dublin #30's row (line 3) changed by `edit`. */
async function withRow30(separator: "," | ";", edit: (row: string[]) => void): Promise<string> {
  const dir = await fixtureCopy();
  const csv = join(dir, "stations.csv");
  const rows: string[][] = parse(await readFile(csv, "utf8"), { bom: true });
  edit(rows[2] as string[]);
  // ";" as a French spreadsheet writes it: every decimal point a comma.
  const cells =
    separator === ","
      ? rows
      : rows.map((row) => row.map((cell) => cell.replace(/^(-?\d+)\.(\d+)$/, "$1,$2")));
  await writeFile(csv, stringify(cells, { delimiter: separator, record_delimiter: "\r\n" }));
  return dir;
}

const CAPACITY = 9;
const errors = (problems: readonly Problem[]) =>
  problems.filter((problem) => problem.severity === "error").map(formatProblem);

describe("a whole number written with zero decimals", () => {
  it.each([
    [",", "20.0"],
    [";", "20,0"],
    [";", "20,00"],
  ] as const)("in a %j file, reads %j as 20", async (separator, written) => {
    const dir = await withRow30(separator, (row) => {
      row[CAPACITY] = written;
    });
    const { dataset, problems } = await readDataset(dir);
    expect(errors(problems)).toEqual([]);
    expect(dataset?.stations.find((station) => station.number === 30)?.capacity).toBe(20);
  });

  it("says a station number so read as the file writes it, in either locale", async () => {
    for (const [separator, written] of [
      [",", "30.0"],
      [";", "30,0"],
    ] as const) {
      const dir = await withRow30(separator, (row) => {
        row[1] = written;
      });
      const { problems } = await readDataset(dir);
      expect(errors(problems)).toEqual([]);
      expect(problems.map(formatProblem)).toContain(
        `${join(dir, "stations.csv")}:3 (dublin #30) number: written "${written}", published as 30: numbers are published without decimals (clients ask for station 30); write 30 if that is the station's number`,
      );
    }
  });

  it("refuses decimals that are not zeros, a comma that may part thousands, and a comma in a ',' file", async () => {
    const semicolon = await withRow30(";", (row) => {
      row[CAPACITY] = "2,5";
    });
    expect(errors((await readDataset(semicolon)).problems)).toEqual([
      `${join(semicolon, "stations.csv")}:3 (dublin #30) capacity: must be a whole number, got "2,5"`,
    ]);
    const thousands = await withRow30(";", (row) => {
      row[CAPACITY] = "1,000";
    });
    expect(errors((await readDataset(thousands)).problems)).toEqual([
      `${join(thousands, "stations.csv")}:3 (dublin #30) capacity: expected a whole number, got "1,000": a thousands separator (an English spreadsheet's); write 1000`,
    ]);
    const comma = await withRow30(",", (row) => {
      row[CAPACITY] = "20,0";
    });
    expect(errors((await readDataset(comma)).problems)).toEqual([
      `${join(comma, "stations.csv")}:3 (dublin #30) capacity: expected a whole number, got "20,0": a decimal comma, as a spreadsheet in a French or German locale writes it; write 20`,
    ]);
  });
});
