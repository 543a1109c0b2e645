// A server's states read against the file it accepted last: only the records whose text changed
// are parsed and checked, the others keep their states; anything doubtful is left to the whole read.
import { setImmediate } from "node:timers/promises";
import type { IndexedMap } from "../indexed-map.js";
import { StationState } from "../model/station-state.js";
import { checkStatesWithAcross } from "./check.js";
import { type LiveState, stationKey, toLiveState } from "./dataset.js";
import type { StatesAcross } from "./known-states.js";
import type { Completeness, StaticSource } from "./load-source.js";
import { parseRecords, type RawRecord } from "./parse-records.js";
import type { Problem, Sourced } from "./problems.js";
import { readSourceText } from "./read-text.js";
import { splitStatesText } from "./states-text.js";

/** The last accepted states file, as this read needs it. */
export interface AcceptedStates {
  /** The static data its records were checked against. */
  readonly source: StaticSource;
  /** Its records' texts, in file order. */
  readonly texts: readonly string[];
  /** Its states, keyed in file order: `states.keyList[i]` is record i's station. */
  readonly states: IndexedMap<string, LiveState>;
  /** What the rules across records found for these keys at these places (warnings only). */
  readonly across: StatesAcross;
}

export interface ChangedStatesRead {
  states: IndexedMap<string, LiveState>;
  /** What a whole read of the file would report: the warnings of the rules across records. */
  problems: Problem[];
  /** This file, for the next read. */
  accepted: AcceptedStates;
}

/**
 * The file's states, or null when this read cannot vouch for them: the file unreadable or laid out
 * otherwise, another record count, a record of another station than the one at its place before,
 * or any problem (even a warning) with a changed record. Null means: read it whole (readStates),
 * which says what is wrong and where.
 *
 * With the same stations at the same places, the rules across records (one state per station,
 * stations without a state) find what they found last time; the records whose text did not change
 * passed the rules of one record at a time against the same static data.
 */
export async function readChangedStates(
  path: string,
  accepted: AcceptedStates,
  read: { source: StaticSource; complete: Completeness },
): Promise<ChangedStatesRead | null> {
  if (accepted.source !== read.source || !read.complete.contracts || !read.complete.stations)
    return null;
  const file = await readSourceText(path, path, true).catch(() => undefined);
  if (!file || "problem" in file) return null;
  await setImmediate(); // between reading and splitting: a server answers meanwhile
  const split = splitStatesText(file.text, accepted.texts);
  if (split?.texts.length !== accepted.texts.length) return null;
  const raws: RawRecord[] = [];
  split.raw.forEach((raw, index) => {
    // Undefined: the same text as the accepted record's at this place.
    if (raw !== undefined) raws.push({ raw, at: { file: path, index } });
  });
  await setImmediate();
  const parsed = parseRecords(StationState, raws);
  if (parsed.problems.length > 0 || parsed.records.length !== raws.length) return null;

  const keyList = accepted.states.keyList;
  const keys: string[] = [];
  const positions: number[] = [];
  for (let at = 0; at < raws.length; at++) {
    const { value } = parsed.records[at] as Sourced<StationState>;
    const index = (raws[at] as RawRecord).at.index as number;
    const key = stationKey(value.contract, value.number);
    if (key !== keyList[index]) return null;
    keys.push(key);
    positions.push(index);
  }
  const checked = checkStatesWithAcross(read.source, parsed.records, read.complete, true, {
    keys,
    fresh: keys.map((_, at) => at),
    across: { duplicates: [], unreported: [] },
  });
  if (checked.problems.length > 0) return null;

  const states = accepted.states.withValuesAt(
    positions,
    parsed.records.map(({ value }) => toLiveState(value)),
  );
  const { across } = accepted;
  return {
    states,
    problems: [...across.duplicates, ...across.unreported],
    accepted: { source: read.source, texts: split.texts, states, across },
  };
}
