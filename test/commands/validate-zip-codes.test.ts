// A postal code a spreadsheet read as a number ("01000" exported as 1000) is said by `validate`:
// silently, the parking would be published with a code no place has.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixtureCopy, runCli, warningLines } from "../helpers.js";

/** The fixtures with the first parking's postal code written `zipCode`. */
async function firstParkingCoded(zipCode: string): Promise<string> {
  const source = await fixtureCopy();
  const file = join(source, "parkings.json");
  const text = await readFile(file, "utf8");
  await writeFile(file, text.replace('"zipCode": "44400"', `"zipCode": "${zipCode}"`));
  return source;
}

describe("validate says a postal code short of its leading zero", () => {
  it("warns of a French parking's code of 4 digits, with the code to write", async () => {
    const source = await firstParkingCoded("4400");
    const result = await runCli(["validate", "--source", source]);
    expect(result.code).toBe(0);
    expect(warningLines(result.stderr)).toEqual([
      `warning: ${source}/parkings.json[0] (nantes #89) zipCode: "4400" has 4 digits where France's postal codes have 5: a leading zero lost, as a spreadsheet reading the column as numbers drops it? write it as text, "04400"`,
    ]);
  });

  it("says nothing of the fixtures' codes, all of 5 digits", async () => {
    const source = await firstParkingCoded("44400");
    const result = await runCli(["validate", "--source", source]);
    expect(result.code).toBe(0);
    expect(warningLines(result.stderr)).toEqual([]);
  });
});
