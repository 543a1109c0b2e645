// Station states minute after minute: a first minute for every station, then each next minute with a
// chosen share of the stations changed (a bike taken or returned, a new lastUpdate).

import type { Station } from "../model/station.js";
import type { StandsState, StationState } from "../model/station-state.js";
import { publishedTime } from "../published-time.js";
import type { Random } from "../serve/simulator.js";
import { withFields } from "../with-fields.js";

// Real networks: a few stations are closed or offline at any time.
const CLOSED_SHARE = 0.01;
const OFFLINE_SHARE = 0.01;
// Stations report every few minutes: the first minute's lastUpdate lies up to this far back.
const REPORT_SPREAD_SECONDS = 300;

/** Whole seconds, `Z`: as the real service publishes it. */
const instant = (time: number) => publishedTime(new Date(time));

function stands(capacity: number, random: Random): StandsState {
  const bikes = Math.floor(random() * (capacity + 1));
  const broken = random() < 0.2 ? Math.floor(random() * Math.min(3, capacity - bikes + 1)) : 0;
  const electric = Math.floor(bikes * random() * 0.5);
  const removable = Math.floor(electric * random());
  return {
    stands: capacity - bikes - broken,
    mechanicalBikes: bikes - electric,
    electricalInternalBatteryBikes: electric - removable,
    electricalRemovableBatteryBikes: removable,
  };
}

export function firstMinute(
  stations: readonly Station[],
  start: Date,
  random: Random,
): StationState[] {
  return stations.map((station) => ({
    contract: station.contract,
    number: station.number,
    status: random() < CLOSED_SHARE ? "CLOSED" : "OPEN",
    connected: random() >= OFFLINE_SHARE,
    lastUpdate: instant(start.getTime() - Math.floor(random() * REPORT_SPREAD_SECONDS) * 1000),
    mainStands: stands(station.capacity, random),
    overflowStands:
      station.overflowCapacity === null ? null : stands(station.overflowCapacity, random),
  }));
}

/** One bike taken or returned: the counts stay consistent and within the capacity. */
function moveOneBike(main: StandsState, random: Random): StandsState {
  const bikes = main.mechanicalBikes + main.electricalInternalBatteryBikes;
  const take = main.stands === 0 || (bikes > 0 && random() < 0.5);
  if (take && main.mechanicalBikes > 0)
    return withFields(main, { mechanicalBikes: main.mechanicalBikes - 1, stands: main.stands + 1 });
  if (take && main.electricalInternalBatteryBikes > 0)
    return withFields(main, {
      electricalInternalBatteryBikes: main.electricalInternalBatteryBikes - 1,
      stands: main.stands + 1,
    });
  if (main.stands > 0)
    return withFields(main, { mechanicalBikes: main.mechanicalBikes + 1, stands: main.stands - 1 });
  return main; // full of removable-battery bikes and no free stand: only the report time changes
}

/** The next minute: exactly `round(changed × stations)` states differ from `previous`. */
export function nextMinute(
  previous: readonly StationState[],
  at: Date,
  changed: number,
  random: Random,
): StationState[] {
  const next = previous.slice();
  const count = Math.round(changed * previous.length);
  // A partial Fisher–Yates shuffle of the indices: `count` distinct stations, in one pass.
  const order = Array.from({ length: previous.length }, (_, index) => index);
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(random() * (order.length - i));
    const index = order[j] as number;
    order[j] = order[i] as number;
    order[i] = index;
    const state = previous[index] as StationState;
    next[index] = {
      ...state,
      connected: true,
      lastUpdate: instant(at.getTime()),
      mainStands: moveOneBike(state.mainStands, random),
    };
  }
  return next;
}
