// A station that a refresh's states file leaves out, though it had a state in the release being
// replaced, keeps that state, marked disconnected: a feed that drops a station for a minute must
// not make it look ten years silent and taken off the street (CLOSED, lastUpdate null) until it
// comes back. Its `lastUpdate` stays its last report; /status and the stale count still count it
// as missing (not in the last read). A station never reported has nothing to keep: CLOSED, as
// `build` publishes it.
import type { LiveState } from "./dataset.js";

/** The last state published, marked disconnected (the same object when it is already). */
export const keptDisconnected = (last: LiveState): LiveState =>
  last.connected ? { ...last, connected: false } : last;
