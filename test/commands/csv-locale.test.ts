// A stations.csv exported by a spreadsheet in a French or German locale (";" between cells, "," in
// numbers) is told through `validate` with what to change and where a spreadsheet takes it from.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixtureCopy, runCli } from "../helpers.js";

describe("validate tells a French or German spreadsheet's export how to be read", () => {
  it("asks for commas between cells and points in numbers, saying where Excel takes them from", async () => {
    const source = await fixtureCopy();
    const csv = join(source, "stations.csv");
    // As a French Excel writes it: ";" between cells, then "53,349562" for 53.349562.
    const french = (await readFile(csv, "utf8"))
      .replaceAll(",", ";")
      .replace(/(\d)\.(\d)/g, "$1,$2");
    await writeFile(csv, french);
    const result = await runCli(["validate", "--source", source]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `error: ${csv}:1: the columns are separated by ";", as a spreadsheet in a French or German locale exports them: velodata reads comma-separated CSV with "." in numbers; export it again with "," as the separator and "." as the decimal sign (Excel takes both from the system's region settings, its list separator and decimal symbol)`,
    );
  });
});
