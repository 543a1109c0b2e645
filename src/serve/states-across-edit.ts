// The states an edit of the static source carries over to the stations it lists, as a server
// publishes it: those the served release publishes that still fit their stations as edited.
import { assembleDataset, type Dataset, type LiveState, stationKey } from "../source/dataset.js";
import { type KeptState, keptDisconnected, unfitKeptStates } from "../source/kept-states.js";
import type { Problem } from "../source/problems.js";
import type { StaticEdit } from "./static-reload.js";

/** An edit's dataset, and the states served it carries over. */
export interface EditedDataset {
  /**
   * The edited source's, with the states served of the stations it still lists: the minute's file
   * is read against them (a station removed from both is no missing station), the simulator steps
   * from them.
   */
  dataset: Dataset;
  /** Each listed station's state as the served release publishes it, a kept one's too. */
  published: ReadonlyMap<string, LiveState>;
  /**
   * The published states that no longer fit their stations as edited (unfitKeptStates), by
   * stationKey, each with its warning: left out of both, as a fresh state of their counts would be.
   */
  unfit: ReadonlyMap<string, Problem>;
}

/**
 * The dataset of an edit of the static source, with the states served (`served`'s, and each
 * station's as the served release publishes it: `published`) that still fit their stations.
 */
export function editedDataset(
  edit: StaticEdit,
  served: Dataset,
  published: (key: string) => LiveState | undefined,
): EditedDataset {
  const edited = assembleDataset(edit.read.source, new Map(), served.statesAt);
  const candidates: (KeptState & { key: string })[] = [];
  for (const station of edit.read.source.stations) {
    const key = stationKey(station.value.contract, station.value.number);
    const state = published(key);
    if (state) candidates.push({ key, station, state });
  }
  const unfitAt = unfitKeptStates(edit.read.source.contracts, candidates);
  const states = new Map<string, LiveState>();
  const fit = new Map<string, LiveState>();
  const unfit = new Map<string, Problem>();
  for (const { key, station, state } of candidates) {
    const problem = unfitAt.get(station.at);
    if (problem) {
      unfit.set(key, problem);
      continue;
    }
    fit.set(key, state);
    const read = served.states.get(key);
    if (read) states.set(key, read);
  }
  return { dataset: { ...edited, states }, published: fit, unfit };
}

/**
 * The minute's `states` after an edit, with each station they leave out at the state it is
 * published with, marked disconnected (kept-states.ts): an edit renders every answer anew, none
 * keeps its state from the served one's rendering as a minute without an edit does.
 */
export function withPublishedStates(
  edited: EditedDataset,
  states: ReadonlyMap<string, LiveState>,
): ReadonlyMap<string, LiveState> {
  let shown: Map<string, LiveState> | undefined;
  for (const [key, state] of edited.published) {
    if (states.has(key)) continue;
    shown ??= new Map(states);
    shown.set(key, keptDisconnected(state));
  }
  return shown ?? states;
}
