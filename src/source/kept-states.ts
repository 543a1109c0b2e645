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
import { availabilitiesConsistent, NO_STATE, stationKey } from "./rules/states.js";

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
  for (const { station } of kept) {
    const reasons = why.get(station.at)?.join("; ");
    if (reasons === undefined || unfit.has(station.at)) continue;
    // At its station (stationKey), for keptSaid to find the station's state in error left out.
    const at = { ...station.at, station: stationKey(station.value.contract, station.value.number) };
    const problem = saidLeftOut(
      warning(
        at,
        undefined,
        `its last published state, kept while the states file leaves it out, no longer fits the station as the static source now describes it (${reasons})`,
      ),
      true,
    );
    unfitReasons.set(problem, reasons);
    unfit.set(station.at, problem);
  }
  return unfit;
}

/** Why each of unfitKeptStates' warnings was given: keptSaid says it in another line instead. */
const unfitReasons = new WeakMap<Problem, string>();

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
 * instead of "no state"; one whose state in error is left out (said "keeps its last published
 * state", with its station: see readStates), in that line, which then says what becomes of it.
 */
export function keptSaid(
  problems: Problem[],
  kept: ReadonlySet<RecordRef>,
  unfit: ReadonlyMap<RecordRef, Problem> = new Map(),
): Problem[] {
  if (kept.size === 0 && unfit.size === 0) return problems;
  const said = new Set<Problem>();
  const unfitOf = new Map(
    [...unfit.values()].flatMap((problem) =>
      problem.at.station === undefined ? [] : [[problem.at.station, problem] as const],
    ),
  );
  const saying = problems.map((problem) => {
    const instead = problem.message === NO_STATE ? unfit.get(problem.at) : undefined;
    if (instead) {
      said.add(instead);
      return instead;
    }
    const unfitToo = leftOutOf(problem, unfitOf);
    // Why the kept state does not fit is said once, at the state's first error.
    if (unfitToo && said.has(unfitToo)) return saidLeftOut(problem, true);
    if (unfitToo) {
      said.add(unfitToo);
      return { ...problem, consequence: unfitConsequence(unfitReasons.get(unfitToo) ?? "") };
    }
    if (problem.message === NO_STATE && kept.has(problem.at)) return { ...problem, message: KEPT };
    if (problem.message === NO_STATES && kept.size > 0) return { ...problem, message: NONE_KEPT };
    return problem;
  });
  return [...saying, ...[...unfit.values()].filter((problem) => !said.has(problem))];
}

/**
 * The unfit warning of the station of `problem`, when that is a state in error left out and said
 * so (its station kept: see readStates and saidLeftOut); a refusal's errors say no consequence.
 */
const leftOutOf = (problem: Problem, unfitOf: ReadonlyMap<string, Problem>): Problem | undefined =>
  problem.at.station !== undefined && problem.consequence
    ? unfitOf.get(problem.at.station)
    : undefined;

/** What becomes of a station whose state in error is left out and whose last one no longer fits. */
const unfitConsequence = (reasons: string): NonNullable<Problem["consequence"]> => ({
  one: `this state is left out, and the station's last published state no longer fits it as the static source now describes it (${reasons}): the station published without one (CLOSED) until the feed gives a good one`,
  many: "these states are left out, and their stations' last published states no longer fit them as the static source now describes them: each station published without one (CLOSED) until the feed gives a good one",
});
