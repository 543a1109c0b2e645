// Problems found in source data, each located by file, record and field, and how to print them.
import { basename, join } from "node:path";
import { escapeControls, excerpt } from "../errors.js";
import { type NumberText, plainNumber } from "./number-texts.js";

/** Where a record comes from: its file, its position there, and a readable name ("dublin #42"). */
export interface RecordRef {
  file: string;
  /** Index in the file's array (JSON) or data row number (CSV, 0-based). */
  index?: number;
  /** 1-based line in the file, when known (CSV). */
  line?: number;
  label?: string;
  /**
   * Of a states record left out for its errors (readStates): the station it says it is of
   * (stationKey), absent when it does not say which (no contract, a number that is no station's).
   */
  station?: string;
  /**
   * The record's number as its cell writes it, where that reads as another text than the number
   * published (a CSV's `032`, `+13`, `52.0`): what a search of the file finds it by.
   */
  writtenNumber?: string;
}

/**
 * `at` as read from the source folder `folder`: each source file sits directly in its folder, and
 * a place kept from an earlier run names the folder as that run was given it (another spelling,
 * or a folder since moved).
 */
export const placedIn = (folder: string, at: RecordRef): RecordRef => ({
  ...at,
  file: join(folder, basename(at.file)),
});

export interface Problem {
  severity: "error" | "warning";
  at: RecordRef;
  field?: string;
  message: string;
  /**
   * What becomes of the record for it, said after the message: of this one record, and of many
   * when problems of a kind are counted in one line (`this state is left out` / `these states are
   * left out`).
   */
  consequence?: { one: string; many: string };
}

/** A validated record with the place it was read from, so rules can point back at it. */
export interface Sourced<T> {
  value: T;
  at: RecordRef;
}

export function error(at: RecordRef, field: string | undefined, message: string): Problem {
  return { severity: "error", at, message, ...(field === undefined ? {} : { field }) };
}

export function warning(at: RecordRef, field: string | undefined, message: string): Problem {
  return { severity: "warning", at, message, ...(field === undefined ? {} : { field }) };
}

/** `stations.csv:14 (toulouse #55) capacity: must be a whole number` */
export function formatProblem(problem: Problem): string {
  const { at } = problem;
  let place = at.file;
  if (at.line !== undefined) place += `:${at.line}`;
  else if (at.index !== undefined) place += `[${at.index}]`;
  if (at.label) place += ` (${at.label})`;
  const field = problem.field ? ` ${problem.field}` : "";
  // Values from files reach terminals and logs: an escape sequence in a name must stay text.
  const consequence = problem.consequence ? `: ${problem.consequence.one}` : "";
  return escapeControls(`${place}${field}: ${problem.message}${consequence}`);
}

export const hasErrors = (problems: readonly Problem[]): boolean =>
  problems.some((problem) => problem.severity === "error");

/** A record's number as written; its text looked up only when the double reads otherwise. */
function numberText(number: unknown, written: NumberText | undefined): string {
  if (typeof number !== "number" || Number.isSafeInteger(number)) return String(number);
  return written?.(["number"]) ?? plainNumber(number);
}

/** The name a record goes by in messages: its contract and number when it has them. */
export function recordLabel(raw: unknown, written?: NumberText): string | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const { contract, number, name } = raw as Record<string, unknown>;
  if (contract !== undefined && number !== undefined)
    return `${excerpt(String(contract))} #${excerpt(numberText(number, written))}`;
  if (typeof name === "string") return excerpt(name);
  return undefined;
}
