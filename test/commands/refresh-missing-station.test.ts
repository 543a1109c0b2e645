// `velodata refresh`: a station the states file leaves out keeps its last state, marked
// disconnected, on the fast path and on a full one (the static source changed); the next run
// that leaves it out rewrites nothing, and the run where it reports again publishes its new state.
import { appendFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixtureCopy, runCli, tempDir } from "../helpers.js";

interface StatesFile {
  states: { contract: string; number: number; lastUpdate: string }[];
}

const isDublin = (number: number) => (state: { contract: string; number: number }) =>
  state.contract === "dublin" && state.number === number;

async function readJson(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path, "utf8"));
}

const isNantes5 = (state: { contract: string; number: number }) =>
  state.contract === "nantes" && state.number === 5;

interface Stands {
  mechanicalBikes: number;
  electricalBikes?: number;
  electricalRemovableBatteryBikes: number;
}
type State = StatesFile["states"][number] & { mainStands: Stands; overflowStands: Stands | null };

/**
 * The fixtures built, and a refresh of them from a states file leaving out the stations `left`
 * matches, each other state first given to `edit`.
 */
async function builtLeavingOut(
  left: readonly ((state: State) => boolean)[],
  edit: (state: State) => void = () => {},
) {
  const source = await fixtureCopy();
  const out = join(await tempDir(), "out");
  expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
  const file = (await readJson(join(source, "states.json"))) as unknown as { states: State[] };
  const states = file.states.filter((state) => !left.some((leaves) => leaves(state)));
  for (const state of states) edit(state);
  const short = join(source, "states-short.json");
  await writeFile(short, JSON.stringify({ states }));
  return { source, out, refresh: ["refresh", "--source", source, "--state", short, "--out", out] };
}

async function editStations(source: string, edit: (rows: string) => string): Promise<void> {
  const csv = join(source, "stations.csv");
  const rows = await readFile(csv, "utf8");
  const edited = edit(rows);
  expect(edited).not.toBe(rows);
  await writeFile(csv, edited);
}

/**
 * Nantes #5 published without a state (as one never reported) by v3, v1 and GBFS: no count beyond
 * what its station now has.
 */
async function expectWithoutState(out: string): Promise<void> {
  expect(await readJson(join(out, "vls/v3/stations/nantes/5.json"))).toMatchObject({
    status: "CLOSED",
    connected: false,
    lastUpdate: null,
    totalStands: { availabilities: { bikes: 0, stands: 0 } },
    mainStands: { availabilities: { bikes: 0, stands: 0 } },
  });
  expect(await readJson(join(out, "vls/v1/stations/nantes/5.json"))).toMatchObject({
    status: "CLOSED",
    available_bikes: 0,
    available_bike_stands: 0,
    last_update: null,
  });
  for (const [version, vehicles] of [
    ["v3", "num_vehicles_available"],
    ["v2", "num_bikes_available"],
  ] as const) {
    const feed = await readJson(join(out, `contracts/nantes/gbfs/${version}/station_status.json`));
    const status = (feed.data as { stations: Record<string, unknown>[] }).stations.find(
      (entry) => entry.station_id === "5",
    );
    expect(status).toMatchObject({ [vehicles]: 0, num_docks_available: 0, is_installed: false });
    const types = status?.vehicle_types_available as { count: number }[];
    expect(types.reduce((sum, type) => sum + type.count, 0)).toBe(0);
  }
}

describe("velodata refresh: a station the states file leaves out", () => {
  it.each([
    ["the fast path", false],
    ["a full refresh (the static source changed)", true],
  ])("keeps its last state, disconnected, on %s, until it reports again", async (_, edited) => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    const states = join(source, "states.json");
    const file = (await readJson(states)) as unknown as StatesFile;
    // Dublin #30 never reported: nothing to keep, published as a build publishes it.
    file.states = file.states.filter((state) => !isDublin(30)(state));
    await writeFile(states, JSON.stringify(file));
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const station = join(out, "vls/v3/stations/dublin/42.json");
    const before = await readJson(station);
    const silent = await readJson(join(out, "vls/v3/stations/dublin/30.json"));
    expect(before).toMatchObject({ status: "OPEN", connected: true });
    expect(silent).toMatchObject({ status: "CLOSED", lastUpdate: null });
    if (edited) await appendFile(join(source, "contracts.json"), "\n");

    const short = join(source, "states-short.json");
    const record = file.states.find(isDublin(42));
    await writeFile(
      short,
      JSON.stringify({ states: file.states.filter((state) => state !== record) }),
    );
    const refresh = ["refresh", "--source", source, "--state", short, "--out", out];
    const first = await runCli(refresh);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout.includes("static source unchanged")).toBe(!edited);
    expect(await readJson(station)).toEqual({ ...before, connected: false });
    expect(await readJson(join(out, "vls/v3/stations/dublin/30.json"))).toEqual(silent);
    const feed = await readJson(join(out, "contracts/dublin/gbfs/v3/station_status.json"));
    const stations = (feed.data as { stations: { station_id: string }[] }).stations;
    expect(stations.find((entry) => entry.station_id === "42")).toMatchObject({
      num_vehicles_available: 27,
      num_docks_available: 3,
      is_installed: true,
      is_renting: false,
      is_returning: false,
      last_reported: before.lastUpdate,
    });
    expect(first.stderr).toContain(
      `warning: ${source}/stations.csv:2 (dublin #42): no state: its last published state kept (status, bikes, stands, lastUpdate), marked disconnected`,
    );
    // Only the station that never reported is published CLOSED, and said so.
    expect(first.stderr.match(/published as CLOSED/g)).toHaveLength(1);
    expect(first.stderr).toContain("(dublin #30): no state: published as CLOSED");

    // Left out again: the same bytes, nothing rewritten.
    const again = await runCli(refresh);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/refreshed .*: 0 of \d+ answers changed/);

    // Reported again: its new state.
    if (record) record.lastUpdate = "2025-02-08T17:00:00Z";
    await writeFile(short, JSON.stringify(file));
    const back = await runCli(refresh);
    expect(back.code, back.stderr).toBe(0);
    expect(await readJson(station)).toEqual({ ...before, lastUpdate: "2025-02-08T17:00:00Z" });
  });

  it("leaves out a kept state that no longer fits its station's lowered capacity, said, and keeps the others", async () => {
    const { source, out, refresh } = await builtLeavingOut([isNantes5, isDublin(42)]);
    // Nantes #5: 18 main stands and 6 overflow ones; its state 10 bikes + 6 free main stands.
    await editStations(source, (rows) =>
      rows.replace(/^(nantes,5,.*),true,18,6(\r?)$/m, "$1,true,4,6$2"),
    );
    const result = await runCli(refresh);
    expect(result.code, result.stderr).toBe(0);

    await expectWithoutState(out);
    expect(result.stderr).toContain(
      `warning: ${source}/stations.csv:410 (nantes #5): its last published state, kept while the states file leaves it out, no longer fits the station as the static source now describes it (mainStands: bikes + stands is 16, more than the station's capacity of 4): this state is left out, the station published without one (CLOSED) until the feed gives a good one`,
    );
    // Said once: not also as kept, nor as a station without a state.
    expect(result.stderr).not.toMatch(/\(nantes #5\): no state/);
    // A kept state that still fits its station is kept.
    expect(await readJson(join(out, "vls/v3/stations/dublin/42.json"))).toMatchObject({
      status: "OPEN",
      connected: false,
      lastUpdate: "2025-02-08T16:44:06Z",
    });
    expect(result.stderr).toContain("(dublin #42): no state: its last published state kept");
  });

  it("says once, in its state's line, a state in error left out whose station's kept state no longer fits", async () => {
    const { source, out, refresh } = await builtLeavingOut([], (state) => {
      if (isNantes5(state)) Object.assign(state, { status: "open" });
    });
    await editStations(source, (rows) =>
      rows.replace(/^(nantes,5,.*),true,18,6(\r?)$/m, "$1,true,4,6$2"),
    );
    const result = await runCli(refresh);
    expect(result.code, result.stderr).toBe(0);

    await expectWithoutState(out);
    expect(result.stderr.split("\n").filter((line) => line.includes("(nantes #5)"))).toEqual([
      `warning: ${refresh[4]}[408] (nantes #5) status: must be one of "OPEN", "CLOSED", got "open": this state is left out, and the station's last published state no longer fits it as the static source now describes it (mainStands: bikes + stands is 16, more than the station's capacity of 4): the station published without one (CLOSED) until the feed gives a good one`,
      // The state's own counts are beyond the capacity too: said, its outcome not again.
      `warning: ${refresh[4]}[408] (nantes #5) mainStands: bikes + stands is 16, more than the station's capacity of 4: this state is left out, the station published without one (CLOSED) until the feed gives a good one`,
    ]);
  });

  it("leaves out a kept state with bikes of a kind its contract no longer runs", async () => {
    // Nantes #5's state has 4 electrical bikes with removable batteries; the others' are made
    // mechanical, so that their fresh states fit the contract once it runs mechanical bikes only.
    const { source, out, refresh } = await builtLeavingOut([isNantes5], (state) => {
      if (state.contract !== "nantes") return;
      for (const stands of [state.mainStands, state.overflowStands]) {
        if (!stands) continue;
        stands.mechanicalBikes += stands.electricalRemovableBatteryBikes;
        stands.electricalRemovableBatteryBikes = 0;
        stands.electricalBikes = 0;
      }
    });
    const contracts = join(source, "contracts.json");
    const file = (await readJson(contracts)) as {
      contracts: { name: string; bikeTypes: Record<string, unknown> }[];
    };
    const nantes = file.contracts.find((contract) => contract.name === "nantes");
    expect(nantes?.bikeTypes).toHaveProperty("electricalRemovableBattery");
    delete nantes?.bikeTypes.electricalRemovableBattery;
    await writeFile(contracts, JSON.stringify(file));
    const result = await runCli(refresh);
    expect(result.code, result.stderr).toBe(0);

    await expectWithoutState(out);
    expect(result.stderr).toContain(
      `(nantes #5): its last published state, kept while the states file leaves it out, no longer fits the station as the static source now describes it (mainStands.electricalRemovableBatteryBikes: 4 bikes of a kind contract "nantes" does not run: add "electricalRemovableBattery" to its bikeTypes in contracts.json)`,
    );
  });

  it("leaves out a kept state's overflow bikes and stands once the source removed its overflow stands", async () => {
    const { source, out, refresh } = await builtLeavingOut([isNantes5]);
    // Nantes #5: 18 main stands and 6 overflow ones, whose state has bikes and free stands in both.
    await editStations(source, (rows) =>
      rows.replace(/^(nantes,5,.*),true,18,6(\r?)$/m, "$1,false,18,$2"),
    );
    const result = await runCli(refresh);
    expect(result.code, result.stderr).toBe(0);
    await expectWithoutState(out);
    expect(result.stderr).toContain(
      "(nantes #5): its last published state, kept while the states file leaves it out, no longer fits the station as the static source now describes it (overflowStands: the station has no overflow stands",
    );
  });

  it.each([
    ["the fast path", false],
    ["a full refresh (the static source changed)", true],
  ])(
    "counts the stations kept apart from those not reported, on %s (--max-stale)",
    async (_, edited) => {
      const source = await fixtureCopy();
      const out = join(await tempDir(), "out");
      // Every station reported a moment ago: none stale but the one left out.
      const file = (await readJson(join(source, "states.json"))) as unknown as StatesFile;
      const now = `${new Date().toISOString().slice(0, 19)}Z`;
      for (const state of file.states) state.lastUpdate = now;
      await writeFile(join(source, "states.json"), JSON.stringify(file));
      expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
      if (edited) await appendFile(join(source, "contracts.json"), "\n");
      const short = join(source, "states-short.json");
      // Each kept at a report of a moment ago: Dublin #42 left out, another's state in error. Three
      // others really not reported for two days.
      const states = file.states.filter((s) => !isDublin(42)(s));
      Object.assign(states[0] as object, { status: "open" });
      for (const state of states.slice(1, 4)) state.lastUpdate = "2025-02-08T16:44:06Z";
      await writeFile(short, JSON.stringify({ states }));
      const refresh = ["refresh", "--source", source, "--state", short, "--out", out];
      const result = await runCli([...refresh, "--max-stale", "0"]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(
        `warning: ${short}: 3 of 413 stations not reported for 15 minutes or more and 2 without a state in the last read (1.2%, more than --max-stale 0%): is the feed stalled, or leaving stations out? Published all the same`,
      );
    },
  );
});
