import { describe, expect, it } from "vitest";
import { seededRandom, simulate } from "../../src/serve/simulator.js";
import type { LiveState } from "../../src/source/dataset.js";
import { fixtureDataset } from "../publish/publish-helpers.js";

const totalBikes = (states: ReadonlyMap<string, LiveState>) =>
  [...states.values()].reduce((sum, state) => sum + state.main.bikes, 0);

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
        dataset.stations,
        states,
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

  // A station that reported may end where it started (a bike out and another in): that is still a report.
  it("moves lastUpdate only for connected stations that reported, and leaves it on the others", async () => {
    const dataset = await fixtureDataset();
    const now = new Date("2026-11-20T08:30:00.500Z");
    const next = simulate(dataset.stations, dataset.states, now, seededRandom(1));
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

  it("is repeatable for a seed and leaves its input untouched", async () => {
    const dataset = await fixtureDataset();
    const copy = JSON.stringify([...dataset.states]);
    const now = new Date("2026-11-20T08:30:00Z");
    const a = simulate(dataset.stations, dataset.states, now, seededRandom(9));
    const b = simulate(dataset.stations, dataset.states, now, seededRandom(9));
    expect([...a]).toEqual([...b]);
    expect(JSON.stringify([...dataset.states])).toBe(copy);
  });
});
