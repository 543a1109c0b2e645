// What an accepted states file leaves for the next read against the same static data: its records
// as read and as checked, so that a record equal to last minute's is neither parsed nor checked again.
import type { IndexedMap } from "../indexed-map.js";
import type { StationState } from "../model/station-state.js";
import { oncePerObject } from "../once-per-object.js";
import type { LiveState } from "./dataset.js";
import type { StaticSource } from "./load-source.js";
import type { Problem, Sourced } from "./problems.js";
import { recordTexts } from "./states-text.js";

export interface KnownStates {
  /** The static data the records were checked against: known records count only for the same. */
  readonly source: StaticSource;
  /** Aligned with each other: the records of the file, in its order. */
  readonly raw: readonly unknown[];
  readonly records: readonly Sourced<StationState>[];
  readonly keys: readonly string[];
  readonly live: readonly LiveState[];
  /** The records' texts, when the file was split into them (see splitStatesText). */
  readonly texts?: readonly string[];
  /**
   * The file's whole text, when the records were parsed from it (whole or split): split when first
   * needed, and the accepted file's bytes of a server's next read (see acceptedOf).
   */
  readonly text?: string;
  /** The states by key, `keys` aligned with `live`: the next file with the same keys shares its index. */
  readonly states: IndexedMap<string, LiveState>;
  /**
   * What the rules across records found (warnings only: the file was accepted). A next file with
   * the same keys at the same places gets the same from them, with nothing to run.
   */
  readonly across: StatesAcross;
}

/** The problems of the rules that see every state at once, in the order checkStates reports them. */
export interface StatesAcross {
  /** oneStatePerStation */
  readonly duplicates: readonly Problem[];
  /** stationsHaveStates */
  readonly unreported: readonly Problem[];
}

/** The known records' texts, to compare the next file's with; undefined when its layout is not split. */
export const knownTexts = (known: KnownStates): readonly string[] | undefined =>
  known.texts ?? textsOf(known);

// Once per accepted file, at its first use: the cron refresh reads one file and never needs them.
const textsOf = oncePerObject((known: KnownStates): readonly string[] | undefined => {
  const texts = known.text === undefined ? undefined : recordTexts(known.text);
  return texts?.length === known.records.length ? texts : undefined;
});

/**
 * The same JSON value (object keys in any order): a record equal to an accepted one has the same
 * problems, none, and the same state. Records are small and flat, so this is cheaper than zod.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let count = 0;
  for (const key in left) {
    if (!Object.hasOwn(right, key) || !sameJson(left[key], right[key])) return false;
    count++;
  }
  for (const _ in right) count--;
  return count === 0;
}
