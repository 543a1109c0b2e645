// A station row its schema refused (a word where a boolean goes) has its position checked all the
// same, where its contract and coordinates passed: one run of validate says both mistakes, not the
// second only once the first is fixed.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixtureCopy, runCli, warningLines } from "../helpers.js";

/** The fixtures with Dublin #42's row replaced by `row`. */
async function dublin42As(row: string): Promise<string> {
  const source = await fixtureCopy();
  const csv = join(source, "stations.csv");
  const text = await readFile(csv, "utf8");
  const edited = text.replace(/^dublin,42,[^\r\n]*/m, row);
  expect(edited).not.toBe(text);
  await writeFile(csv, edited);
  return source;
}

describe("validate: the position of a refused station row", () => {
  it("says its coordinates swapped in the run that says its refused field", async () => {
    const source = await dublin42As(
      "dublin,42,SMITHFIELD NORTH,Smithfield North,-6.278198,53.349562,yes,false,false,30,",
    );
    const result = await runCli(["validate", "--source", source]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `  error: ${source}/stations.csv:2 (dublin #42) banking: expected true or false, got "yes": English for true; write true\n`,
    );
    expect(warningLines(result.stderr)).toEqual([
      `warning: ${source}/stations.csv:2 (dublin #42) latitude: -6.278198, 53.349562 is outside the part of the world Europe/Dublin is in (latitude 27 to 82, longitude -32 to 70), the only one of the contract's 114 stations and parkings: latitude and longitude swapped (an export that writes longitude first)?`,
    ]);
  });

  it("checks the range of its longitude when its latitude is refused", async () => {
    const source = await dublin42As(
      "dublin,42,SMITHFIELD NORTH,Smithfield North,north,500,false,false,false,30,",
    );
    const result = await runCli(["validate", "--source", source]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `  error: ${source}/stations.csv:2 (dublin #42) latitude: expected number, got "north"\n` +
        `  error: ${source}/stations.csv:2 (dublin #42) longitude: 500 is outside -180..180 (degrees east)\n`,
    );
  });
});
