// What an accepted states file leaves for the next read against the same static data: its records
// as read and as checked, so that a record equal to last minute's is neither parsed nor checked again.
import type { StationState } from "../model/station-state.js";
import type { LiveState } from "./dataset.js";
import type { StaticSource } from "./load-source.js";
import type { Sourced } from "./problems.js";

export interface KnownStates {
  /** The static data the records were checked against: known records count only for the same. */
  readonly source: StaticSource;
  /** Aligned with each other: the records of the file, in its order. */
  readonly raw: readonly unknown[];
  readonly records: readonly Sourced<StationState>[];
  readonly keys: readonly string[];
  readonly live: readonly LiveState[];
}

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
