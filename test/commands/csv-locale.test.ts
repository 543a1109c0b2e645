// A stations.csv exported by a spreadsheet in a French or German locale (";" between cells, "," in
// numbers) is read as it is: the same answers as the file written with "," and ".".
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { describe, expect, it } from "vitest";
import { fixtureCopy, runCli, tempDir } from "../helpers.js";

/** The stations answers a build of `source` publishes. */
async function builtStations(source: string): Promise<string> {
  const out = join(await tempDir(), "out");
  const built = await runCli(["build", "--source", source, "--out", out]);
  expect(built.code, built.stderr).toBe(0);
  return readFile(join(out, "vls/v3/stations.json"), "utf8");
}

describe("a French or German spreadsheet's export", () => {
  it("is read as it is: ';' between cells, decimal commas, the same answers", async () => {
    const source = await fixtureCopy();
    const before = await builtStations(source);
    const csv = join(source, "stations.csv");
    // As a French Excel writes it: ";" between cells, then "53,349562" for 53.349562.
    const rows: string[][] = parse(await readFile(csv, "utf8"), { bom: true });
    const french = rows.map((row) => row.map((cell) => cell.replace(/^(-?\d+)\.(\d+)$/, "$1,$2")));
    await writeFile(csv, stringify(french, { delimiter: ";", record_delimiter: "\r\n" }));
    expect(await readFile(csv, "utf8")).toContain(
      "dublin;42;SMITHFIELD NORTH;Smithfield North;53,349562;-6,278198;",
    );
    const validated = await runCli(["validate", "--source", source]);
    expect([validated.code, validated.stderr]).toEqual([0, expect.not.stringContaining("error")]);
    expect(await builtStations(source)).toBe(before);
  });

  it("with its header's cells in quotes, one on two lines: told apart from a ',' file all the same", async () => {
    const source = await fixtureCopy();
    const csv = join(source, "stations.csv");
    const rows: string[][] = parse(await readFile(csv, "utf8"), { bom: true });
    const french = rows.map((row) => row.map((cell) => cell.replace(/^(-?\d+)\.(\d+)$/, "$1,$2")));
    // Every header cell quoted (csv-stringify's quoted_match), as some exports write them: read.
    const quoted = { delimiter: ";", record_delimiter: "\r\n", quoted_match: /^[a-zA-Z]+$/ };
    await writeFile(csv, stringify(french, quoted));
    expect(await readFile(csv, "utf8")).toMatch(/^"contract";"number";/);
    const validated = await runCli(["validate", "--source", source]);
    expect([validated.code, validated.stderr]).toEqual([0, expect.not.stringContaining("error")]);
    // A name on two lines (Alt+Enter in Excel): that cell said, not a quote out of place.
    const header = (french[0] as string[]).map((name) =>
      name === "capacity" ? "capacity\n(stands)" : name,
    );
    await writeFile(csv, stringify([header, ...french.slice(1)], { delimiter: ";" }));
    const errors = (await runCli(["validate", "--source", source])).stderr
      .split("\n")
      .filter((line) => line.startsWith("  error: "));
    expect(errors).toEqual([
      `  error: ${csv}:1 capacity\\x0a(stands): column 10's name holds a line break: a column's name is one line, write "capacity" alone`,
    ]);
  });

  it("with a header in French: each column named as the one it likely is, the rest to rename or leave out", async () => {
    const source = await fixtureCopy();
    const csv = join(source, "stations.csv");
    const rows: string[][] = parse(await readFile(csv, "utf8"), { bom: true });
    const french = [
      ["Contrat", "Numéro", "Nom", "Adresse", "Latitude", "Longitude", "Terminal CB", "Bonus"],
      ["Débordement", "Capacité", "Capacité débordement"],
    ].flat();
    expect(french).toHaveLength(rows[0]?.length ?? 0);
    await writeFile(csv, stringify([french, ...rows.slice(1)], { delimiter: ";", bom: true }));
    const validated = await runCli(["validate", "--source", source]);
    expect(validated.code).toBe(1);
    const lines = validated.stderr.split("\n").map((line) => line.trim());
    // "Numéro" and "Capacité" are "number" and "capacity" but for their accents.
    expect(lines).toContain(`error: ${csv}:1 Numéro: unknown column: "number" misspelt?`);
    expect(lines).toContain(`error: ${csv}:1 Capacité: unknown column: "capacity" misspelt?`);
    // The others are the data under the city's names: deleting them would leave the header
    // without its banking and overflow columns.
    expect(lines).toContain(
      `error: ${csv}:1: 3 unknown columns, "Terminal CB", "Débordement", "Capacité débordement": this file has only the columns contract, number, name, address, latitude, longitude, banking, bonus, overflow, capacity, overflowCapacity; leave them out of the export, or name each as the column it holds (the header lacks banking, overflow, overflowCapacity)`,
    );
  });

  it("with VRAI and FAUX for true and false: each said with the word to write", async () => {
    const source = await fixtureCopy();
    const csv = join(source, "stations.csv");
    const text = await readFile(csv, "utf8");
    // As a French Excel exports a boolean cell (true twice: ",true,true," shares a comma); WAHR and
    // FALSCH from a German one.
    const french = text
      .replace(/,true,/gi, ",VRAI,")
      .replace(/,false,/gi, ",FAUX,")
      .replace(/,true,/gi, ",VRAI,");
    await writeFile(csv, french.replace(",VRAI,", ",WAHR,").replace(",FAUX,", ",FALSCH,"));
    const validated = await runCli(["validate", "--source", source]);
    expect(validated.code).toBe(1);
    const errors = validated.stderr.split("\n").filter((line) => line.includes("expected true"));
    expect(errors[0]).toMatch(
      /banking: expected true or false, got "FALSCH": a German spreadsheet's word for false; write false$/,
    );
    expect(
      errors.some((line) =>
        line.endsWith(`got "VRAI": a French spreadsheet's word for true; write true`),
      ),
    ).toBe(true);
    expect(
      errors.some((line) =>
        line.endsWith(`got "FAUX": a French spreadsheet's word for false; write false`),
      ),
    ).toBe(true);
  });
});
