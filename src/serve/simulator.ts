// A plausible minute of a bike-sharing network, for demos and load tests without a live feed.
import type { Availabilities } from "../model/api.js";
import { BIKE_KINDS, type BikeKind, type Contract } from "../model/contract.js";
import { groupByContract } from "../publish/group.js";
import { publishedTime } from "../published-time.js";
import { type Dataset, type LiveState, stationKey } from "../source/dataset.js";
import { withFields } from "../with-fields.js";

export type Random = () => number;

/** A small seeded generator (mulberry32): the same seed gives the same simulation. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Per station and per minute. Real networks see a few stations fail a day, back within minutes.
const CLOSE_RATE = 0.002;
const DISCONNECT_RATE = 0.002;
const RECOVER_RATE = 0.2;
// Share of docked bikes that leave their station each minute at a busy hour.
const TRIP_RATE = 0.02;
// Real stations report now and then even when nothing moved, so a quiet station does not look
// stale: one silent for this long (or a demo started on old data) reports at the next step.
// Below /status's default stale limit of 15 minutes.
const OVERDUE_MS = 10 * 60_000;

type BikeType =
  | "mechanicalBikes"
  | "electricalInternalBatteryBikes"
  | "electricalRemovableBatteryBikes";

const COUNT_OF: Record<BikeKind, BikeType> = {
  mechanical: "mechanicalBikes",
  electricalInternalBattery: "electricalInternalBatteryBikes",
  electricalRemovableBattery: "electricalRemovableBatteryBikes",
};

/** What a step reads: the network and its current states (a Dataset is one). */
export type Network = Pick<Dataset, "contracts" | "stations" | "states">;

/**
 * One step: bikes ride from station to station of the same contract (the total of each contract
 * is conserved and no station goes over its capacity, since each trip frees a stand where it
 * starts and fills one where it ends), some stations close or lose their connection and come
 * back. Only stations that reported get a new `lastUpdate`: the connected ones whose state changed,
 * and those silent for ten minutes or more.
 */
export function simulate(
  network: Network,
  now: Date,
  random: Random,
  seconds = 60,
): Map<string, LiveState> {
  const { stations, states } = network;
  const next = new Map<string, LiveState>();
  const capacities = new Map<string, number>();
  const reported = new Set<string>();
  const contracts = new Map(network.contracts.map((contract) => [contract.name, contract]));
  for (const station of stations) {
    const key = stationKey(station.contract, station.number);
    const state = states.get(key);
    if (state) next.set(key, withFields(state, { main: withFields(state.main, {}) }));
    else {
      // Never reported (a station added to the static source, a network started without a
      // states file): installed now, half full, so that it takes part in the simulation.
      const contract = contracts.get(station.contract);
      next.set(key, installed(station.capacity, contract ? declaredTypes(contract) : []));
      reported.add(key);
    }
    capacities.set(key, station.capacity);
  }
  const scale = seconds / 60;
  const overdue = now.getTime() - OVERDUE_MS;

  for (const [key, state] of next) {
    if (random() < (state.status === "OPEN" ? CLOSE_RATE : RECOVER_RATE) * scale) {
      state.status = state.status === "OPEN" ? "CLOSED" : "OPEN";
      // Reopened with no working stand (a closed station may report none), its stands work
      // again: an open one with none would never take a bike back. Fewer than its capacity is
      // real data (broken stands), kept as it is.
      if (state.status === "OPEN" && state.main.stands === 0)
        state.main.stands = (capacities.get(key) as number) - state.main.bikes;
      reported.add(key);
    }
    if (random() < (state.connected ? DISCONNECT_RATE : RECOVER_RATE) * scale) {
      state.connected = !state.connected;
      reported.add(key);
    }
    if (state.lastUpdate === null || Date.parse(state.lastUpdate) <= overdue) reported.add(key);
  }

  // A bike stays in its contract: another city's system may not even have that kind of bike.
  const byContract = groupByContract(stations);
  for (const contract of network.contracts) {
    const riding = (byContract.get(contract.name) ?? []).flatMap((station) => {
      const key = stationKey(station.contract, station.number);
      const state = next.get(key);
      return state?.status === "OPEN" && state.connected ? [[key, state] as const] : [];
    });
    const types = declaredTypes(contract);
    const docked = riding.reduce((total, [, state]) => total + state.main.bikes, 0);
    // Rounded at random, not to the nearest: a small contract at a short period expects a
    // fraction of a trip each step, which rounding down would make none, ever.
    const trips = Math.floor(docked * TRIP_RATE * scale + random());
    for (let trip = 0; trip < trips && riding.length > 1; trip++) {
      const from = riding[Math.floor(random() * riding.length)];
      const to = riding[Math.floor(random() * riding.length)];
      if (!from || !to || from === to || to[1].main.stands === 0) continue;
      const type = pickBike(from[1].main, types, random);
      if (!type) continue;
      move(from[1].main, to[1].main, type);
      reported.add(from[0]);
      reported.add(to[0]);
    }
  }

  const at = publishedTime(now);
  for (const key of reported) {
    const state = next.get(key) as LiveState;
    if (state.connected) state.lastUpdate = at;
  }
  return next;
}

/** A station's first state: open, connected, half its stands holding bikes of the first kind declared. */
function installed(capacity: number, types: readonly BikeType[]): LiveState {
  const bikes = Math.floor(capacity / 2);
  const type = types[0] ?? "mechanicalBikes";
  const main: Availabilities = {
    bikes,
    stands: capacity - bikes,
    mechanicalBikes: 0,
    electricalBikes: type === "mechanicalBikes" ? 0 : bikes,
    electricalInternalBatteryBikes: 0,
    electricalRemovableBatteryBikes: 0,
  };
  main[type] += bikes;
  return { status: "OPEN", connected: true, lastUpdate: null, main, overflow: null };
}

/** The counts of the kinds the contract declares: the only bikes its GBFS feeds can count. */
const declaredTypes = (contract: Contract): BikeType[] =>
  BIKE_KINDS.filter((kind) => contract.bikeTypes?.[kind]).map((kind) => COUNT_OF[kind]);

/** A docked bike of a declared kind, each bike equally likely; none when there is none. */
function pickBike(
  stands: Availabilities,
  types: readonly BikeType[],
  random: Random,
): BikeType | undefined {
  const docked = types.reduce((sum, type) => sum + stands[type], 0);
  let pick = random() * docked;
  for (const type of types) {
    if (pick < stands[type]) return type;
    pick -= stands[type];
  }
  return undefined;
}

function move(from: Availabilities, to: Availabilities, type: BikeType): void {
  from[type]--;
  from.bikes--;
  from.stands++;
  to[type]++;
  to.bikes++;
  to.stands--;
  if (type !== "mechanicalBikes") {
    from.electricalBikes--;
    to.electricalBikes++;
  }
}
