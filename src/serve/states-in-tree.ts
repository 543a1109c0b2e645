// The states a server's tree publishes, for a restart while the feed leaves stations out: they keep
// their last published state, marked disconnected, as they would have had the server run on
// (kept-states.ts), rather than read as never reported (CLOSED, lastUpdate null), unless it no
// longer fits the station as the static source now describes it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { StationV3 } from "../model/api.js";
import type { Station } from "../model/station.js";
import { fileOf } from "../routes/file-of.js";
import { pathOf } from "../routes/routes.js";
import { type LiveState, stationKey } from "../source/dataset.js";
import { type KeptState, keptDisconnected, unfitKeptStates } from "../source/kept-states.js";
import type { StaticSource } from "../source/load-source.js";
import type { Problem, RecordRef } from "../source/problems.js";

/** The file's states with the kept ones added, and the kept stations' records' places. */
export interface StatesKeptFromTree {
  states: ReadonlyMap<string, LiveState>;
  /** For their warnings (keptSaid). */
  at: ReadonlySet<RecordRef>;
  /** The published states not kept, which no longer fit their stations, by their places (keptSaid). */
  unfit: ReadonlyMap<RecordRef, Problem>;
}

/**
 * Each of `source`'s stations that `states` leaves out keeps the state the tree at `out` publishes
 * for it (its v3 answer), marked disconnected, unless it no longer fits the station
 * (unfitKeptStates); a station the tree has not, or has as never reported, keeps none. No tree
 * there, or an answer that does not read as one: nothing kept for it.
 */
export function statesKeptFromTree(
  out: string,
  source: Pick<StaticSource, "contracts" | "stations">,
  states: ReadonlyMap<string, LiveState>,
): StatesKeptFromTree {
  const published: KeptState[] = [];
  for (const station of source.stations) {
    const { value } = station;
    if (states.has(stationKey(value.contract, value.number))) continue;
    const last = publishedState(out, value);
    if (last) published.push({ station, state: last });
  }
  const unfit = unfitKeptStates(source.contracts, published);
  const at = new Set<RecordRef>();
  let withKept: Map<string, LiveState> | undefined;
  for (const { station, state } of published) {
    if (unfit.has(station.at)) continue;
    withKept ??= new Map(states);
    withKept.set(stationKey(station.value.contract, station.value.number), keptDisconnected(state));
    at.add(station.at);
  }
  return { states: withKept ?? states, at, unfit };
}

function publishedState(out: string, station: Station): LiveState | undefined {
  const path = pathOf({ name: "station", contract: station.contract, number: station.number });
  let text: string;
  try {
    text = readFileSync(join(out, fileOf(path)), "utf8");
  } catch {
    return undefined; // no tree, or not this station in it
  }
  let parsed: ReturnType<typeof StationV3.safeParse>;
  try {
    parsed = StationV3.safeParse(JSON.parse(text));
  } catch {
    return undefined;
  }
  if (!parsed.success) return undefined;
  const answer = parsed.data;
  if (answer.lastUpdate === null || answer.number !== station.number) return undefined;
  return {
    status: answer.status,
    connected: answer.connected,
    lastUpdate: answer.lastUpdate,
    main: answer.mainStands.availabilities,
    overflow: answer.overflowStands?.availabilities ?? null,
  };
}
