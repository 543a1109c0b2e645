// A server's states read against the file it accepted last: only the records whose bytes changed
// are parsed and checked, the others keep their states; anything doubtful is left to the whole read.
import { setImmediate } from "node:timers/promises";
import type { IndexedMap } from "../indexed-map.js";
import { StationState } from "../model/station-state.js";
import { checkStatesWithAcross } from "./check-states.js";
import { type LiveState, stationKey, toLiveState } from "./dataset.js";
import { FileBuffer } from "./file-buffer.js";
import type { KnownStates, StatesAcross } from "./known-states.js";
import { allRead, type StaticSource, type Unread } from "./load-source.js";
import { parseRecords, type RawRecord } from "./parse-records.js";
import type { Problem, Sourced } from "./problems.js";
import { recordSizes, splitStatesBytes } from "./states-bytes.js";

/**
 * The last accepted states file, as this read needs it. Its bytes are compared where they lie with
 * the next file's, read into a buffer of its own that then holds the next accepted file's: no text
 * is made of either file (at a million stations, a 250 MB string and a million slices a minute),
 * and no buffer allocated. Read against once: the next read is against the one it returns.
 */
export interface AcceptedStates {
  /** The static data its records were checked against. */
  readonly source: StaticSource;
  /** Its bytes (all ASCII) and each record's size in them, in file order. */
  readonly bytes: Buffer;
  readonly sizes: readonly number[];
  /** The buffer the next file is read into (not the one holding `bytes`). */
  readonly spare: FileBuffer;
  /** The one holding `bytes`: the next read's spare. */
  readonly holding: FileBuffer;
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
 * What a whole read left (readStates' KnownStates) as the next read needs it: the file's bytes
 * from its text; undefined when the text is not all ASCII or not laid out as records. `replaced`:
 * the file it replaces, whose buffers are taken over (a feed read whole every minute would
 * otherwise allocate two a minute).
 */
export function acceptedOf(
  known: KnownStates,
  replaced?: AcceptedStates,
): AcceptedStates | undefined {
  const { text } = known;
  // As many bytes in UTF-8 as characters: all ASCII.
  if (text === undefined || Buffer.byteLength(text, "utf8") !== text.length) return undefined;
  // In a buffer that a later read fills again, and the next read's made now: two buffers in all,
  // allocated once (not by the first refreshes, where their external memory starts V8's marking).
  const holding = replaced?.spare ?? new FileBuffer(text.length);
  const bytes = holding.hold(text);
  const sizes = recordSizes(bytes);
  if (sizes?.length !== known.records.length) return undefined;
  const spare = replaced?.holding ?? new FileBuffer(text.length);
  const { source, states, across } = known;
  return { source, bytes, sizes, spare, holding, states, across };
}

/**
 * The file's states, or null when this read cannot vouch for them: the file unreadable or laid out
 * otherwise, another record count, a record of another station than the one at its place before,
 * or any problem (even a warning) with a changed record. Null means: read it whole (readStates),
 * which says what is wrong and where.
 *
 * With the same stations at the same places, the rules across records (one state per station,
 * stations without a state) find what they found last time; the records whose bytes did not change
 * passed the rules of one record at a time against the same static data.
 */
export async function readChangedStates(
  path: string,
  accepted: AcceptedStates,
  read: { source: StaticSource; unread: Unread },
): Promise<ChangedStatesRead | null> {
  if (accepted.source !== read.source || !allRead(read.unread)) return null;
  const spare = accepted.spare;
  const bytes = await spare.read(path).catch(() => undefined);
  if (!bytes) return null;
  await setImmediate(); // between reading and splitting: a server answers meanwhile
  const split = splitStatesBytes(bytes, accepted);
  if (split?.sizes.length !== accepted.sizes.length) return null;
  const raws: RawRecord[] = [];
  for (const { index, raw } of split.changed) raws.push({ raw, at: { file: path, index } });
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
  const checked = checkStatesWithAcross(read.source, parsed.records, read.unread, true, {
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
    // The accepted file's buffer takes the next file: this one's is kept.
    accepted: {
      source: read.source,
      bytes,
      sizes: split.sizes,
      spare: accepted.holding,
      holding: spare,
      states,
      across,
    },
  };
}
