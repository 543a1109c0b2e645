// A station that a refresh's states file leaves out, though it had a state in the release being
// replaced, keeps that state, marked disconnected: a feed that drops a station for a minute must
// not make it look ten years silent and taken off the street (CLOSED, lastUpdate null) until it
// comes back. Its `lastUpdate` stays its last report; /status and the stale count still count it
// as missing (not in the last read). A station never reported has nothing to keep: CLOSED, as
// `build` publishes it.
import type { LiveState } from "./dataset.js";
import type { Problem, RecordRef } from "./problems.js";
import { NO_STATES } from "./read-dataset.js";
import { NO_STATE } from "./rules/states.js";

/** The last state published, marked disconnected (the same object when it is already). */
export const keptDisconnected = (last: LiveState): LiveState =>
  last.connected ? { ...last, connected: false } : last;

const KEPT =
  "no state: its last published state kept (status, bikes, stands, lastUpdate), marked disconnected";
const NONE_KEPT =
  "has no states: each station reported before keeps its last published state, marked disconnected (one never reported: CLOSED, lastUpdate null)";

/**
 * The states file's warnings, those of the kept stations (`kept`: their static records' places)
 * saying what is done: "published as CLOSED" would describe a publish that does not happen.
 */
export function keptSaid(problems: Problem[], kept: ReadonlySet<RecordRef>): Problem[] {
  if (kept.size === 0) return problems;
  return problems.map((problem) => {
    if (problem.message === NO_STATE && kept.has(problem.at)) return { ...problem, message: KEPT };
    if (problem.message === NO_STATES) return { ...problem, message: NONE_KEPT };
    return problem;
  });
}
