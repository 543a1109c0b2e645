// A stations.csv whose quotes are wrong is told in velodata's words through `validate`: the line,
// the column counted from 1 with its header name, and what is wrong; never csv-parse's own.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixtureCopy, runCli } from "../helpers.js";

const HEADER =
  "contract,number,name,address,latitude,longitude,banking,bonus,overflow,capacity,overflowCapacity";
const ROW = (number: number, name: string, overflow = "false") =>
  `dublin,${number},${name},Smithfield,53.349562,-6.278198,false,false,${overflow},30,`;

async function validateCsv(rows: string[]): Promise<string[]> {
  const source = await fixtureCopy();
  await writeFile(join(source, "stations.csv"), `${[HEADER, ...rows].join("\n")}\n`);
  await writeFile(join(source, "states.json"), '{"states": []}');
  const result = await runCli(["validate", "--source", source]);
  expect(result.code).toBe(1);
  expect(result.stderr).not.toMatch(/Invalid|Quote Not Closed|field \d|at line/);
  return result.stderr
    .split("\n")
    .filter((line) => line.startsWith("  error: "))
    .map((line) => line.replace(`${source}/`, ""));
}

describe("validate says a spreadsheet's total line as one line to delete", () => {
  it("a Total row under the stations: one error, not each of its missing cells", async () => {
    const total = "Total,,,,,,,,,60,";
    expect(await validateCsv([ROW(42, "SMITH"), ROW(43, "SMITH"), total])).toEqual([
      '  error: stations.csv:4: is a total line ("Total"), not a record: delete it from the export',
    ]);
    // A station named so, with its number, is a station.
    expect(
      await validateCsv([ROW(42, "Total Energies"), total.replace("Total", "TOTAUX")]),
    ).toEqual([
      '  error: stations.csv:3: is a total line ("TOTAUX"), not a record: delete it from the export',
    ]);
  });
});

describe("validate says what is wrong with a CSV's quotes, where", () => {
  it("a stray quote inside a cell: its line, its column from 1 and the column's name", async () => {
    expect(await validateCsv([ROW(42, "SMITH"), ROW(43, 'SMITH "A" B')])).toEqual([
      '  error: stations.csv:3 column 3 (name): has a quote (") inside a cell that does not start with one: remove it, or put the whole cell in quotes and double each quote inside ("a ""b"" c")',
    ]);
  });

  it("text after a closing quote, after a cell over two lines: the line it is on", async () => {
    expect(await validateCsv([ROW(42, '"SMITH\nFIELD"'), ROW(43, "SMITH", '"false"x')])).toEqual([
      '  error: stations.csv:4 column 9 (overflow): has text after the quote (") that closes the cell: a quote inside a quoted cell is written twice ("")',
    ]);
  });

  it("a quote inside a quoted cell, not doubled: text after the quote that closed it, not a quote left open", async () => {
    // Three quotes on the line: an odd count, and yet none is left open.
    expect(await validateCsv([ROW(42, "SMITH"), ROW(43, '"MOUNT STREET "LOWER"')])).toEqual([
      '  error: stations.csv:3 column 3 (name): has text after the quote (") that closes the cell: a quote inside a quoted cell is written twice ("")',
    ]);
  });

  it("a stray quote in the header: its column from 1, no name to give", async () => {
    const source = await fixtureCopy();
    await writeFile(join(source, "stations.csv"), `contract,num"ber,name\n${ROW(42, "SMITH")}\n`);
    const result = await runCli(["validate", "--source", source]);
    expect(result.stderr).toContain(`${source}/stations.csv:1 column 2: has a quote (")`);
  });

  it("a header cell on two lines (Alt+Enter in Excel): that cell said, not every column missing", async () => {
    const source = await fixtureCopy();
    // "con⏎tract": a name broken within itself (a narrow column's wrap typed in), the column too.
    const header = HEADER.replace("capacity,", '"capacity\r\n(stands, max)",')
      .replace("contract,", '"con\ntract",')
      .concat(',"Notes\nmore"');
    await writeFile(join(source, "stations.csv"), `${header}\n${ROW(42, "SMITH")},\n`);
    const result = await runCli(["validate", "--source", source]);
    const errors = result.stderr.split("\n").filter((line) => line.startsWith("  error: "));
    expect(errors).toEqual([
      `  error: ${source}/stations.csv:1 con\\x0atract: column 1's name holds a line break: a column's name is one line, write "contract"`,
      `  error: ${source}/stations.csv:1 capacity\\x0d\\x0a(stands, max): column 10's name holds a line break: a column's name is one line, write "capacity" alone`,
      `  error: ${source}/stations.csv:1 Notes\\x0amore: column 12's name holds a line break: a column's name is one line`,
    ]);
  });

  it("a name broken within itself is the column it joins into, in any case, or a copy to leave out", async () => {
    const source = await fixtureCopy();
    // "overflow⏎Capacity": its first line is a column too, but not the one meant; "Ban⏎king" in
    // another case, in a `;` file; "con⏎tract" beside the "contract" the header has.
    const header = `${HEADER.replace("overflowCapacity", '"overflow\nCapacity"').replace("banking", '"Ban\r\nking"')},"con\ntract"`;
    const row = `${ROW(42, "SMITH")},dublin`;
    for (const separator of [",", ";"]) {
      const file = `${header}\r\n${row}\r\n`.replaceAll(",", separator);
      await writeFile(join(source, "stations.csv"), file);
      const result = await runCli(["validate", "--source", source]);
      const errors = result.stderr.split("\n").filter((line) => line.startsWith("  error: "));
      expect(errors, separator).toEqual([
        `  error: ${source}/stations.csv:1 Ban\\x0d\\x0aking: column 7's name holds a line break: a column's name is one line, write "banking"`,
        `  error: ${source}/stations.csv:1 overflow\\x0aCapacity: column 11's name holds a line break: a column's name is one line, write "overflowCapacity"`,
        `  error: ${source}/stations.csv:1 con\\x0atract: column 12's name holds a line break, and the header has "contract" already, in column 1: leave this one out of the export`,
      ]);
    }
  });

  it("a column beside the same in another case: a second copy to leave out, not a case to fix", async () => {
    const source = await fixtureCopy();
    await writeFile(join(source, "stations.csv"), `${HEADER},Capacity\n${ROW(42, "SMITH")},31\n`);
    const result = await runCli(["validate", "--source", source]);
    const errors = result.stderr.split("\n").filter((line) => line.startsWith("  error: "));
    expect(errors).toEqual([
      `  error: ${source}/stations.csv:1 Capacity: unknown column: the header has "capacity" already, in column 10; leave this one out of the export`,
    ]);
  });

  it("a quote in the header closed only in a row below: one error, not the row's cells as columns", async () => {
    const source = await fixtureCopy();
    const header = HEADER.replace("name,", '"name,');
    const rows = [ROW(42, "SMITH"), ROW(43, 'SMITH"')];
    await writeFile(join(source, "stations.csv"), `${[header, ...rows].join("\n")}\n`);
    const result = await runCli(["validate", "--source", source]);
    const errors = result.stderr.split("\n").filter((line) => line.startsWith("  error: "));
    expect(errors).toEqual([
      `  error: ${source}/stations.csv:1 column 3: opens a quote (") that closes only in a row below, and holds the rest of the header: close it on the header's line, or double a quote inside a cell ("")`,
    ]);
  });

  it("a quote never closed: the line where it opens", async () => {
    expect(await validateCsv([ROW(42, '"SMITH'), ROW(43, '"X"'), ROW(44, "Y")])).toEqual([
      '  error: stations.csv:2: has a cell that opens a quote (") and never closes it: close it, or double a quote inside a cell ("")',
    ]);
  });
});

describe("validate reads a hostile header in time", () => {
  // Each unknown column was checked against the whole header for each known column it lacks: a
  // header of 64,000 names without the known ones (a 600 KB file) took 82 s, 300,000 (2.4 MB) more
  // than ten minutes.
  it("60,000 unknown columns, the known ones missing: said in one line, within seconds", async () => {
    const source = await fixtureCopy();
    const names = Array.from({ length: 60_000 }, (_, at) => `extra${at}`);
    await writeFile(join(source, "stations.csv"), `contract,${names.join(",")}\n`);
    const started = performance.now();
    const result = await runCli(["validate", "--source", source]);
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(result.code).toBe(1);
    // One error for them all, not 60,000 lines saying the same.
    const unknown = result.stderr.split("\n").filter((line) => line.includes("unknown column"));
    expect(unknown).toEqual([
      `  error: ${source}/stations.csv:1: 60000 unknown columns, "extra0", "extra1", "extra2", "extra3", "extra4" and 59995 more: this file has only the columns contract, number, name, address, latitude, longitude, banking, bonus, overflow, capacity, overflowCapacity; leave them out of the export, or name each as the column it holds (the header lacks number, name, address, latitude, longitude, banking, bonus, overflow, capacity, overflowCapacity)`,
    ]);
    expect(result.stderr).toContain(
      `${source}/stations.csv:1 number: required column is missing from the header`,
    );
  }, 60_000);
});
