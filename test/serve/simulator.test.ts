import { describe, expect, it } from "vitest";
import type { Contract } from "../../src/model/contract.js";
import { seededRandom, simulate } from "../../src/serve/simulator.js";
import type { Dataset, LiveState } from "../../src/source/dataset.js";
import { fixtureDataset } from "../publish/publish-helpers.js";

const totalBikes = (states: ReadonlyMap<string, LiveState>) =>
  [...states.values()].reduce((sum, state) => sum + state.main.bikes, 0);

const KINDS = [
  "mechanicalBikes",
  "electricalInternalBatteryBikes",
  "electricalRemovableBatteryBikes",
] as const;

/** "dublin electricalRemovableBatteryBikes" → how many of them are docked in that contract. */
function bikesByContractAndKind(states: ReadonlyMap<string, LiveState>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [key, state] of states) {
    const contract = key.slice(0, key.indexOf("/"));
    for (const kind of KINDS) {
      const name = `${contract} ${kind}`;
      counts.set(name, (counts.get(name) ?? 0) + state.main[kind]);
    }
  }
  return counts;
}

/** Runs the simulator for `minutes`, from the dataset's states. */
function run(dataset: Dataset, minutes: number, seed: number): Map<string, LiveState> {
  const random = seededRandom(seed);
  let states = dataset.states;
  for (let minute = 0; minute < minutes; minute++)
    states = simulate({ ...dataset, states }, new Date(Date.UTC(2026, 10, 20, 8, minute)), random);
  return states as Map<string, LiveState>;
}

describe("simulate", () => {
  it("conserves bikes, never goes over capacity, and keeps the counts consistent over many minutes", async () => {
    const dataset = await fixtureDataset();
    const random = seededRandom(42);
    let states: ReadonlyMap<string, LiveState> = dataset.states;
    const capacity = new Map(
      dataset.stations.map((s) => [`${s.contract}/${s.number}`, s.capacity]),
    );
    const total = totalBikes(states);
    let closures = 0;
    let disconnections = 0;
    for (let minute = 0; minute < 120; minute++) {
      const next = simulate(
        { ...dataset, states },
        new Date(Date.UTC(2026, 10, 20, 8, minute)),
        random,
      );
      for (const [key, state] of next) {
        const before = states.get(key) as LiveState;
        if (before.status === "OPEN" && state.status === "CLOSED") closures++;
        if (before.connected && !state.connected) disconnections++;
        const { main } = state;
        expect(main.bikes).toBe(main.mechanicalBikes + main.electricalBikes);
        expect(main.electricalBikes).toBe(
          main.electricalInternalBatteryBikes + main.electricalRemovableBatteryBikes,
        );
        expect(Math.min(main.bikes, main.stands, main.mechanicalBikes)).toBeGreaterThanOrEqual(0);
        expect(main.bikes + main.stands).toBeLessThanOrEqual(capacity.get(key) as number);
      }
      expect(totalBikes(next)).toBe(total);
      states = next;
    }
    expect(closures).toBeGreaterThan(0);
    expect(disconnections).toBeGreaterThan(0);
  });

  it("reopens a closed station with its stands working, though it reported none while closed", async () => {
    const dataset = await fixtureDataset();
    const closed = [...dataset.states].filter(([, state]) => state.status === "CLOSED");
    expect(closed.length).toBeGreaterThan(0);
    const capacity = new Map(
      dataset.stations.map((s) => [`${s.contract}/${s.number}`, s.capacity]),
    );
    // Each closed station reports no stand, as the fixtures' nantes #4 does, but the first: one
    // working stand, fewer than its capacity (broken stands), which it keeps.
    const states = new Map(dataset.states);
    const [broken] = closed[0] as [string, LiveState];
    for (const [key, state] of closed)
      states.set(key, { ...state, main: { ...state.main, stands: key === broken ? 1 : 0 } });
    const random = seededRandom(7);
    let current: ReadonlyMap<string, LiveState> = states;
    const reopened = new Set<string>();
    for (let minute = 0; minute < 30 && reopened.size < closed.length; minute++) {
      const next = simulate(
        { ...dataset, states: current },
        new Date(Date.UTC(2026, 10, 20, 8, minute)),
        random,
      );
      for (const [key] of closed) {
        const state = next.get(key) as LiveState;
        if (reopened.has(key) || state.status !== "OPEN") continue;
        reopened.add(key);
        const before = states.get(key) as LiveState;
        // Trips keep bikes + stands: what the station had, or all its stands once they work again.
        expect(state.main.bikes + state.main.stands, key).toBe(
          key === broken ? before.main.bikes + 1 : capacity.get(key),
        );
      }
      current = next;
    }
    expect(reopened.size).toBe(closed.length);
  });

  // A station that reported may end where it started (a bike out and another in): that is still a report.
  it("moves lastUpdate only for connected stations that reported, and leaves it on the others", async () => {
    const dataset = await fixtureDataset();
    const now = new Date("2026-11-20T08:30:00.500Z");
    const next = simulate(dataset, now, seededRandom(1));
    let moved = 0;
    for (const [key, state] of next) {
      const before = dataset.states.get(key) as LiveState;
      const same =
        JSON.stringify({ ...state, lastUpdate: null }) ===
        JSON.stringify({ ...before, lastUpdate: null });
      if (state.lastUpdate !== before.lastUpdate) {
        moved++;
        expect(state.lastUpdate).toBe("2026-11-20T08:30:00Z");
        expect(state.connected).toBe(true);
      } else {
        expect(same || !state.connected).toBe(true);
      }
    }
    expect(moved).toBeGreaterThan(0);
  });

  it("makes a station silent for over ten minutes report at once, if connected", async () => {
    const dataset = await fixtureDataset();
    const now = new Date("2026-11-23T10:00:00Z");
    const next = simulate(dataset, now, seededRandom(4));
    // Every fixture is older than ten minutes at `now`.
    for (const [key, state] of next) {
      expect(state.lastUpdate, key).toBe(
        state.connected ? "2026-11-23T10:00:00Z" : dataset.states.get(key)?.lastUpdate,
      );
    }
  });

  // /status calls a station stale after 15 minutes: a quiet station must not look stalled.
  it("never leaves a connected station silent for more than ten minutes", async () => {
    const dataset = await fixtureDataset();
    const random = seededRandom(11);
    let states: ReadonlyMap<string, LiveState> = dataset.states;
    const start = Date.UTC(2026, 10, 23, 10, 0);
    let quietStations = 0;
    for (let minute = 0; minute <= 60; minute++) {
      const now = start + minute * 60_000;
      const next = simulate({ ...dataset, states }, new Date(now), random);
      for (const [key, state] of next) {
        if (!state.connected) continue;
        expect(now - Date.parse(state.lastUpdate as string), key).toBeLessThan(10 * 60_000);
        // A station whose state did not change but reported anyway: the rule under test was used.
        const before = states.get(key);
        const same =
          JSON.stringify({ ...before, lastUpdate: null }) ===
          JSON.stringify({ ...state, lastUpdate: null });
        if (minute > 0 && same && before?.lastUpdate !== state.lastUpdate) quietStations++;
      }
      states = next;
    }
    expect(quietStations).toBeGreaterThan(0);
  });

  it("is repeatable for a seed and leaves its input untouched", async () => {
    const dataset = await fixtureDataset();
    const copy = JSON.stringify([...dataset.states]);
    const now = new Date("2026-11-20T08:30:00Z");
    const a = simulate(dataset, now, seededRandom(9));
    const b = simulate(dataset, now, seededRandom(9));
    expect([...a]).toEqual([...b]);
    expect(JSON.stringify([...dataset.states])).toBe(copy);
  });

  // A Dublin e-bike landing in Toulouse would break Toulouse's GBFS counts (no such vehicle type there).
  it("keeps every bike in its contract: each contract's count of each kind is conserved", async () => {
    const dataset = await fixtureDataset();
    const before = bikesByContractAndKind(dataset.states);
    const after = run(dataset, 120, 7);
    expect(bikesByContractAndKind(after)).toEqual(before);
    // The bikes did ride: the check above is about trips that happened.
    const moved = [...after].filter(
      ([key, state]) => state.main.bikes !== dataset.states.get(key)?.main.bikes,
    );
    expect(moved.length).toBeGreaterThan(50);
  });

  it("makes trips in a small contract at short periods, as many over time as the rate says", async () => {
    const dataset = await fixtureDataset();
    // The smallest contract of the fixtures: too few bikes for one whole trip in 10 seconds.
    const sizes = new Map<string, number>();
    for (const [key, state] of dataset.states) {
      const contract = key.slice(0, key.indexOf("/"));
      sizes.set(contract, (sizes.get(contract) ?? 0) + state.main.bikes);
    }
    const [smallest, docked] = [...sizes].sort((a, b) => a[1] - b[1])[0] as [string, number];
    expect(docked * 0.02 * (10 / 60)).toBeLessThan(0.5);
    const random = seededRandom(5);
    let states = dataset.states;
    let changed = 0;
    for (let step = 0; step < 360; step++) {
      const next = simulate(
        { ...dataset, states },
        new Date(Date.UTC(2026, 10, 20, 8, 0, step * 10)),
        random,
        10,
      );
      for (const [key, state] of next)
        if (key.startsWith(`${smallest}/`) && state.main.bikes !== states.get(key)?.main.bikes)
          changed++;
      states = next;
    }
    // An hour of 10 s steps: ~2% of its docked bikes a minute ride, each trip moving two counts.
    expect(changed).toBeGreaterThan(docked * 0.02 * 60);
  });

  it("moves only bikes of the kinds the contract declares in bikeTypes", async () => {
    const dataset = await fixtureDataset();
    // Lyon's bikes, but Lyon declares mechanical bikes only: its electrical bikes must stay put.
    const contracts = dataset.contracts.map(
      (contract): Contract =>
        contract.name === "lyon" ? { ...contract, bikeTypes: { mechanical: {} } } : contract,
    );
    const lyon = (states: ReadonlyMap<string, LiveState>) =>
      [...states]
        .filter(([key]) => key.startsWith("lyon/"))
        .map(([key, state]) => [key, state.main.electricalBikes, state.main.mechanicalBikes]);
    const before = lyon(dataset.states);
    expect(before.some(([, electrical]) => (electrical as number) > 0)).toBe(true);
    const after = lyon(run({ ...dataset, contracts }, 60, 3));
    expect(after.map(([key, electrical]) => [key, electrical])).toEqual(
      before.map(([key, electrical]) => [key, electrical]),
    );
    // Mechanical bikes still ride in Lyon.
    expect(after.map(([, , mechanical]) => mechanical)).not.toEqual(
      before.map(([, , mechanical]) => mechanical),
    );
  });
});

describe("simulate, stations that never reported", () => {
  it("installs each one open and half full, of a kind its contract declares, and moves bikes from there", async () => {
    const dataset = await fixtureDataset();
    // A network started with no states file, as `serve --simulate` without one starts it.
    const first = simulate(
      { ...dataset, states: new Map() },
      new Date(Date.UTC(2026, 10, 20, 8, 0)),
      seededRandom(7),
    );
    expect(first.size).toBe(dataset.stations.length);
    // Open, but for the few the step's own failures close (0.2% a minute).
    const open = [...first.values()].filter((state) => state.status === "OPEN").length;
    expect(open / first.size).toBeGreaterThan(0.95);
    for (const station of dataset.stations) {
      const state = first.get(`${station.contract}/${station.number}`) as LiveState;
      if (state.connected) expect(state.lastUpdate).toBe("2026-11-20T08:00:00Z");
      expect(state.main.bikes + state.main.stands).toBe(station.capacity);
      const kinds = KINDS.reduce((sum, kind) => sum + state.main[kind], 0);
      expect(kinds).toBe(state.main.bikes);
    }
    // Each contract's bikes are of a kind it declares (its GBFS feeds count no other).
    for (const [name, count] of bikesByContractAndKind(first)) {
      const [contract, kind] = name.split(" ") as [string, (typeof KINDS)[number]];
      const declared = dataset.contracts.find((each) => each.name === contract)?.bikeTypes;
      if (count > 0 && declared)
        expect(Object.keys(declared).map((k) => `${k}Bikes`)).toContain(kind);
    }
    // Then they ride: ten minutes later, some station's count moved.
    const later = run({ ...dataset, states: first }, 10, 7);
    expect(totalBikes(later)).toBe(totalBikes(first));
    expect([...later].some(([key, state]) => state.main.bikes !== first.get(key)?.main.bikes)).toBe(
      true,
    );
  });
});
