// The README's examples of source data are read as velodata reads a source: a maintainer copies
// them, and an example that no longer passes would teach the wrong format.
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatProblem } from "../../src/source/problems.js";
import { readDataset } from "../../src/source/read-dataset.js";
import { FIXTURES, ROOT, tempDir } from "../helpers.js";

/** The README's code blocks of one language, in order. */
async function readmeBlocks(language: string): Promise<string[]> {
  const readme = await readFile(join(ROOT, "README.md"), "utf8");
  return [...readme.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, "g"))].map(
    ([, block]) => block as string,
  );
}

describe("the README's source examples", () => {
  it("reads its stations CSV beside the fixtures' contracts without an error", async () => {
    const [csv] = await readmeBlocks("csv");
    expect(csv).toMatch(/^contract,number,/);
    const dir = join(await tempDir(), "source");
    await mkdir(dir);
    await copyFile(join(FIXTURES, "contracts.json"), join(dir, "contracts.json"));
    await writeFile(join(dir, "stations.csv"), csv as string);
    const { dataset, problems } = await readDataset(dir);
    expect(problems.filter(({ severity }) => severity === "error").map(formatProblem)).toEqual([]);
    expect(dataset?.stations.map(({ number, address }) => [number, address])).toEqual([
      [1, "Place Béraudier, 69003 Lyon"],
      [2, ""],
    ]);
  });
});
