// A station that a refresh's states file leaves out, though it had a state in the release being
// replaced, keeps that state, marked disconnected: a feed that drops a station for a minute must
// not make it look ten years silent and taken off the street (CLOSED, lastUpdate null) until it
// comes back. Its `lastUpdate` stays its last report; /status and the stale count still count it
// as missing (not in the last read). A station never reported has nothing to keep: CLOSED, as
// `build` publishes it. A kept state is held to its station as the static source describes it
// now, as a fresh state is (unfitKeptStates).
import type { Contract } from "../model/contract.js";
import type { Station } from "../model/station.js";
import type { StationState } from "../model/station-state.js";
import type { LiveState } from "./dataset.js";
import { type Problem, type RecordRef, type Sourced, warning } from "./problems.js";
import { NO_STATES, saidLeftOut } from "./read-dataset.js";
import { bikesOfDeclaredTypes } from "./rules/gbfs.js";
import { availabilitiesConsistent, NO_STATE } from "./rules/states.js";

/** The last state published, marked disconnected (the same object when it is already). */
export const keptDisconnected = (last: LiveState): LiveState =>
  last.connected ? { ...last, connected: false } : last;

const KEPT =
  "no state: its last published state kept (status, bikes, stands, lastUpdate), marked disconnected";
const NONE_KEPT =
  "has no states: each station reported before keeps its last published state, marked disconnected (one never reported: CLOSED, lastUpdate null)";

/** A state to keep for a station, beside the station's record as the static source now reads. */
export interface KeptState {
  station: Sourced<Station>;
  state: LiveState;
}

/**
 * The states of `kept` that no longer fit their station (a capacity lowered, a kind of bike or the
 * overflow stands removed since the state was read), by their stations' places, each with its
 * warning. They are held to the rules a fresh state of the same counts is held to against its
 * station (availabilitiesConsistent, bikesOfDeclaredTypes of `contracts`), and left out as such a
 * state would be: the station is then published without one until the feed reports it. Its time
 * is not checked again: it passed when read, and only grows older. Only `kept` is looked at (a
 * refresh keeps a few states), not the whole network.
 */
export function unfitKeptStates(
  contracts: readonly Sourced<Contract>[],
  kept: readonly KeptState[],
): Map<RecordRef, Problem> {
  const unfit = new Map<RecordRef, Problem>();
  if (kept.length === 0) return unfit;
  const stations = kept.map(({ station }) => station);
  const states = kept.map(({ station, state }) => ({
    value: stationStateOf(station.value, state),
    at: station.at,
  }));
  const why = new Map<RecordRef, string[]>();
  for (const problem of [
    ...availabilitiesConsistent(stations, states),
    ...bikesOfDeclaredTypes(contracts, states),
  ]) {
    const said = `${problem.field}: ${problem.message}`;
    const all = why.get(problem.at);
    if (all) all.push(said);
    else why.set(problem.at, [said]);
  }
  for (const [at, reasons] of why)
    unfit.set(
      at,
      saidLeftOut(
        warning(
          at,
          undefined,
          `its last published state, kept while the states file leaves it out, no longer fits the station as the static source now describes it (${reasons.join("; ")})`,
        ),
        true,
      ),
    );
  return unfit;
}

/** A kept state as the states file would give it, for the rules a fresh one is read by. */
const stationStateOf = (station: Station, state: LiveState): StationState => ({
  contract: station.contract,
  number: station.number,
  status: state.status,
  connected: state.connected,
  lastUpdate: state.lastUpdate,
  mainStands: state.main,
  overflowStands: state.overflow,
});

/**
 * The states file's warnings, those of the kept stations (`kept`: their static records' places)
 * saying what is done: "published as CLOSED" would describe a publish that does not happen. A
 * station whose kept state no longer fits (`unfit`, by unfitKeptStates) is said by its warning
 * instead of "no state".
 */
export function keptSaid(
  problems: Problem[],
  kept: ReadonlySet<RecordRef>,
  unfit: ReadonlyMap<RecordRef, Problem> = new Map(),
): Problem[] {
  if (kept.size === 0 && unfit.size === 0) return problems;
  const said = new Set<Problem>();
  const saying = problems.map((problem) => {
    const instead = problem.message === NO_STATE ? unfit.get(problem.at) : undefined;
    if (instead) {
      said.add(instead);
      return instead;
    }
    if (problem.message === NO_STATE && kept.has(problem.at)) return { ...problem, message: KEPT };
    if (problem.message === NO_STATES && kept.size > 0) return { ...problem, message: NONE_KEPT };
    return problem;
  });
  return [...saying, ...[...unfit.values()].filter((problem) => !said.has(problem))];
}
