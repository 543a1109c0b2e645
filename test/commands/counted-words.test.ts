// Every CLI line that counts things agrees in number with its count: "1 station", "2 stations".
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixtureCopy, runCli, tempDir } from "../helpers.js";

/** The fixtures cut to Dublin's first station, its state (fresh) and no parking, with a portal.json. */
async function oneStationSource(): Promise<string> {
  const source = await fixtureCopy();
  const contracts = JSON.parse(await readFile(join(source, "contracts.json"), "utf8"));
  contracts.contracts = contracts.contracts.filter((c: { name: string }) => c.name === "dublin");
  await writeFile(join(source, "contracts.json"), JSON.stringify(contracts));
  const csv = (await readFile(join(source, "stations.csv"), "utf8")).split("\n");
  await writeFile(join(source, "stations.csv"), `${csv[0]}\n${csv[1]}\n`);
  const states = JSON.parse(await readFile(join(source, "states.json"), "utf8"));
  // Reported a minute ago: the fixtures' own states are old, which validate would warn of.
  const recent = new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, "Z");
  states.states = states.states
    .slice(0, 1)
    .map((state: object) => ({ ...state, lastUpdate: recent }));
  await writeFile(join(source, "states.json"), JSON.stringify(states));
  await writeFile(join(source, "parkings.json"), '{"parkings": []}');
  // Nothing said but the counts: no note of a portal.json missing either.
  await writeFile(join(source, "portal.json"), '{"serviceName": "One Bike"}');
  return source;
}

describe("counts in the CLI's lines agree in number", () => {
  it("validate says 1 contract, 1 station, 1 state, 0 parkings", async () => {
    const source = await oneStationSource();
    const result = await runCli(["validate", "--source", source]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `${source} is valid: 1 contract, 1 station, 1 state, 0 parkings\n`,
    );
  });

  it("a refused source says 1 error, and 1 warning beside it", async () => {
    const source = await oneStationSource();
    const csv = join(source, "stations.csv");
    await writeFile(csv, (await readFile(csv, "utf8")).replace(",30,", ",-30,"));
    await writeFile(join(source, "parkings.json"), '{"parkings": [], "version": 2}');
    const result = await runCli(["build", "--source", source, "--out", join(source, "out")]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("the source data has 1 error;");
    expect(result.stderr).toContain("and 1 warning (");
    expect(result.stderr).not.toMatch(/\b1 (errors|warnings)\b/);
  });

  it("build's summary says 1 contract, 1 station, 0 parkings", async () => {
    const source = await oneStationSource();
    const out = join(await tempDir(), "out");
    const result = await runCli(["build", "--source", source, "--out", out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/built .*: 1 contract, 1 station, 0 parkings → \d+ answers,/);
  });
});
