import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Contract } from "../../src/model/contract.js";
import { DEFAULT_PORTAL } from "../../src/model/portal.js";
import { Station } from "../../src/model/station.js";
import { StationState } from "../../src/model/station-state.js";
import { checkStaticSource } from "../../src/source/check.js";
import { checkStates } from "../../src/source/check-states.js";
import { formatProblem, type Sourced } from "../../src/source/problems.js";
import { readDataset, readStatic } from "../../src/source/read-dataset.js";
import { tempDir } from "../helpers.js";
import { lyonContract, lyonState, lyonStation } from "./lyon-source.js";

async function source(files: {
  contracts: unknown[];
  stations: unknown[];
  states?: unknown[];
}): Promise<string> {
  const dir = join(await tempDir(), "source");
  await mkdir(dir);
  await writeFile(join(dir, "contracts.json"), JSON.stringify({ contracts: files.contracts }));
  await writeFile(join(dir, "stations.json"), JSON.stringify({ stations: files.stations }));
  if (files.states)
    await writeFile(join(dir, "states.json"), JSON.stringify({ states: files.states }));
  return dir;
}

const errorsOf = async (dir: string) =>
  (await readDataset(dir)).problems
    .filter((problem) => problem.severity === "error")
    .map((problem) => formatProblem(problem).slice(dir.length + 1));

describe("the rules across records run over the records that passed their schema", () => {
  it("reports a contract's schema error and a station on an unknown contract together, not its own stations", async () => {
    const dir = await source({
      contracts: [lyonContract("lyon"), lyonContract("paris", "France")],
      stations: [
        lyonStation(1),
        { ...lyonStation(2), contract: "paris" },
        { ...lyonStation(3), contract: "nowhere" },
      ],
    });
    expect((await readStatic(dir)).unread.contracts).toEqual(new Set(["paris"]));
    expect(await errorsOf(dir)).toEqual([
      "contracts.json[1] (paris) country_code: must be an ISO 3166-1 alpha-2 code in capitals, e.g. FR",
      'stations.json[2] (nowhere #3) contract: unknown contract "nowhere" (not in contracts.json)',
    ]);
  });

  it("reports a station's schema error, a number twice and a state of no station together, not the bad station's state", async () => {
    const dir = await source({
      contracts: [lyonContract("lyon")],
      // Station 7's number written as text still says which station its state is of.
      stations: [lyonStation(1), lyonStation(1, "AGAIN"), { ...lyonStation(2), number: "7" }],
      states: [lyonState(1), lyonState(7), lyonState(99)],
    });
    expect((await readStatic(dir)).unread.stations).toEqual(new Set(["lyon/7"]));
    expect(await errorsOf(dir)).toEqual([
      'stations.json[2] (lyon #7) number: expected number, got "7": write 7 without quotes',
      'stations.json[1] (lyon #1) number: station 1 appears twice in contract "lyon" (first at [0])',
      'states.json[2] (lyon #99) number: no station 99 in contract "lyon"',
    ]);
  });

  it("leaves the rules looking records up in a file out when a bad record there cannot be named", async () => {
    const dir = await source({
      contracts: [lyonContract("lyon"), lyonContract(5)],
      stations: [lyonStation(1), { ...lyonStation(2), number: "two" }],
      states: [lyonState(1), lyonState(99)],
    });
    const read = await readStatic(dir);
    expect(read.unread).toEqual({ contracts: "all", stations: "all" });
    const stations = [{ value: { ...lyonStation(3), contract: "nowhere" }, at: { file: "s" } }];
    expect(checkStaticSource({ ...read.source, stations }, read.unread)).toEqual([]);
    // Read whole, the same rules speak (lyon has none of these stations: renamed?).
    expect(checkStaticSource({ ...read.source, stations }).map((p) => p.message)).toEqual([
      'unknown contract "nowhere" (not in contracts.json, where "lyon" has no station: renamed?)',
      'no station names contract "lyon": its lists are published empty (not yet exported, or named otherwise in the stations file?)',
    ]);
    expect(await errorsOf(dir)).not.toContainEqual(expect.stringContaining("no station 99"));
  });

  it('names no station by a number written otherwise than in digits: its states are not "no station"', async () => {
    // A spreadsheet's export of 1234567890, a sign typed by mistake (in text or as a number), a
    // number of 30 mistyped.
    for (const number of ["1.23457E+09", "-30", -30, "1e1"]) {
      const dir = await source({
        contracts: [lyonContract("lyon")],
        stations: [lyonStation(1), { ...lyonStation(2), number }],
        states: [lyonState(1), lyonState(1234567890), lyonState(30)],
      });
      expect((await readStatic(dir)).unread.stations).toBe("all");
      const errors = await errorsOf(dir);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/^stations\.json\[1\] .* number: /);
    }
  });

  it("checks the states of stations read, leaving out those of a station that failed its schema", () => {
    const sourced = <T>(file: string, values: T[]): Sourced<T>[] =>
      values.map((value, index) => ({ value, at: { file, index } }));
    const states = sourced("states.json", [lyonState(5), lyonState(6)].map(parse(StationState)));
    const read = {
      contracts: sourced("contracts.json", [parse(Contract)(lyonContract("lyon"))]),
      stations: sourced("stations.json", [parse(Station)(lyonStation(6))]),
      parkings: [],
      portal: DEFAULT_PORTAL,
    };
    const unread = { contracts: new Set<string>(), stations: new Set(["lyon/5"]) };
    expect(checkStates(read, states, unread)).toEqual([]);
    expect(checkStates(read, states).map(formatProblem)).toEqual([
      'states.json[0] number: no station 5 in contract "lyon"',
    ]);
  });
});

const parse =
  <T>(schema: { parse(raw: unknown): T }) =>
  (raw: unknown): T =>
    schema.parse(raw);
