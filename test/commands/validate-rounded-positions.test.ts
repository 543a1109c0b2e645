// Positions an export rounded (a spreadsheet writing numbers as its cells show them, 45.69 for
// 45.689519) are said by `validate`, once a contract: silently, each station would be published
// hundreds of metres from where it stands.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixtureCopy, runCli, warningLines } from "../helpers.js";

/** The fixtures with the coordinates of Dublin's stations cut to `decimals` decimals. */
async function dublinRounded(decimals: number): Promise<string> {
  const source = await fixtureCopy();
  const csv = join(source, "stations.csv");
  const cut = new RegExp(`(-?\\d+\\.\\d{${decimals}})\\d+`, "g");
  const lines = (await readFile(csv, "utf8"))
    .split("\r\n")
    .map((line) => (line.startsWith("dublin,") ? line.replace(cut, "$1") : line));
  await writeFile(csv, lines.join("\r\n"));
  return source;
}

describe("validate says a contract's positions were rounded by an export", () => {
  it("warns once for a contract whose stations all have 2 decimals, saying how far off they may be", async () => {
    const source = await dublinRounded(2);
    const result = await runCli(["validate", "--source", source]);
    expect(result.code).toBe(0);
    expect(warningLines(result.stderr)).toEqual([
      `warning: ${source}/stations.csv:2 (dublin #42) latitude: 53.34, -6.27: the 114 stations of contract "dublin" are all placed with 2 decimals or fewer, to within about 556 m: a spreadsheet exporting its numbers as shown, rounded? export the coordinates in full`,
    ]);
  });

  it("says nothing of positions written to 4 decimals, about 6 m", async () => {
    const source = await dublinRounded(4);
    const result = await runCli(["validate", "--source", source]);
    expect(result.code).toBe(0);
    expect(warningLines(result.stderr)).toEqual([]);
  });
});
