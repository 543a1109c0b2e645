// Where commands write for people: lines on stdout/stderr, a progress line on terminals, problems.
import { basename } from "node:path";
import { UserError } from "../errors.js";
import { PRIORITY_PREFIX, writesToJournal } from "../journal.js";
import { counted } from "../plural.js";
import { type AlikeLines, alikeLines } from "../source/alike-problems.js";
import type { Problem } from "../source/problems.js";
import { stderrIsTerminal } from "./command-thread.js";

export interface Output {
  info(line: string): void;
  warn(line: string): void;
  /** A transient status line; only shown on a terminal. */
  progress(text: string): void;
}

export function terminalOutput(stdout = process.stdout, stderr = process.stderr): Output {
  // Under systemd (serve's start, a cron refresh run by a timer) a warning is the journal's
  // warning: its stderr lines are info otherwise.
  const warning = stderr === process.stderr && writesToJournal(2) ? PRIORITY_PREFIX.warning : "";
  let shown = false;
  const clear = () => {
    if (shown) stderr.write("\r\x1b[K");
    shown = false;
  };
  return {
    info: (line) => {
      clear();
      stdout.write(`${line}\n`);
    },
    warn: (line) => {
      clear();
      stderr.write(`${warning}${line}\n`);
    },
    progress: (text) => {
      // A worker thread's stderr is a pipe to the process's, which may be a terminal.
      if (!(stderr.isTTY || (stderr === process.stderr && stderrIsTerminal()))) return;
      stderr.write(`\r\x1b[K${text}`);
      shown = text !== "";
    },
  };
}

/** For tests and callers that want the lines. */
export function memoryOutput(): Output & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (line) => lines.push(line),
    warn: (line) => lines.push(line),
    progress: () => {},
  };
}

/**
 * How many of each severity a command prints before a count of the rest: a broken states file of a
 * big network can have a problem on every line, and the first ones say what went wrong. And of
 * one mistake repeated over a file (every lastUpdate without its Z), how many before one line
 * counts the rest of that kind (alike-problems.ts).
 */
export interface ProblemsShown {
  warnings: number;
  errors: number;
  ofAKind: number;
  /** Where to see every problem, said when some were counted rather than shown. */
  everyOne: string;
}

export const SOME_PROBLEMS: ProblemsShown = {
  warnings: 20,
  errors: 50,
  ofAKind: 3,
  everyOne: "`velodata validate --all`, given the same --source and --state, lists every one",
};
/** validate's: every kind of problem, the first few of each. */
export const EVERY_KIND: ProblemsShown = {
  warnings: Infinity,
  errors: Infinity,
  ofAKind: 3,
  everyOne: "`velodata validate --all` lists every one",
};
/** validate --all's: every problem, one line each. */
export const EVERY_PROBLEM: ProblemsShown = {
  warnings: Infinity,
  errors: Infinity,
  ofAKind: Infinity,
  everyOne: "", // never said: nothing is left out
};

/**
 * Prints warnings (the first few of many); throws with the errors when there is one (the first
 * few of many, then how many more and where to see them all), saying what that means for the
 * command (`validate` publishes nothing either way: it says nothing, and prints its warnings too).
 */
export function reportProblems(
  problems: readonly Problem[],
  output: Output,
  consequence: string | null = "nothing was published",
  shown: ProblemsShown = SOME_PROBLEMS,
): void {
  const warnings = problems.filter((problem) => problem.severity === "warning");
  const errors = problems.filter((problem) => problem.severity === "error").sort(byPlace);
  // A command stopped by errors publishes nothing: its warnings ("published as CLOSED") would
  // describe what does not happen. They are counted then (validate, which publishes nothing
  // either way, says so by giving no consequence, and prints them).
  const stopped = errors.length > 0 && consequence !== null;
  const warningLines = stopped ? emptyListing : listing(warnings, "warning", shown.warnings, shown);
  const errorLines = listing(errors, "error", shown.errors, shown);
  // Said once, last, when a kind was counted and no count of the rest said it already.
  const howCounted =
    warningLines.counted || errorLines.counted
      ? `(the first ${shown.ofAKind} problems of a kind are shown, the rest counted: ${shown.everyOne})`
      : undefined;
  for (const line of warningLines.lines) output.warn(line);
  if (errors.length === 0) {
    if (howCounted && warningLines.left === 0) output.warn(howCounted);
    return;
  }
  const lines = errorLines.lines;
  const countedWarnings = stopped && warnings.length > 0;
  if (countedWarnings) lines.push(`and ${counted(warnings.length, "warning")} (${shown.everyOne})`);
  else if (howCounted && errorLines.left === 0) lines.push(howCounted);
  throw new UserError(
    `the source data has ${counted(errors.length, "error")}${consequence ? `; ${consequence}` : ""}`,
    lines,
  );
}

const emptyListing: AlikeLines = { lines: [], left: 0, counted: false };

/** At most `most` lines of `problems` (a kind's rest counted in one), then a count of the others. */
function listing(
  problems: readonly Problem[],
  severity: "warning" | "error",
  most: number,
  shown: ProblemsShown,
): AlikeLines {
  const said = alikeLines(problems, shown.ofAKind, most);
  const lines = said.lines.map((line) => `${severity}: ${line}`);
  if (said.left > 0)
    lines.push(`${severity}: … and ${counted(said.left, `more ${severity}`)} (${shown.everyOne})`);
  return { ...said, lines };
}

/**
 * Files in the order they are read and fixed, the static ones first (a states file is checked
 * against them), whatever their names sort as: "states" sorted before "stations", and a build's
 * first 50 errors could all be a states file's, hiding every station's.
 */
const READING_ORDER = [/^contracts\.json$/, /^stations\./, /^parkings\./, /^portal\.json$/];

function readingRank(file: string): number {
  const rank = READING_ORDER.findIndex((name) => name.test(basename(file)));
  return rank < 0 ? READING_ORDER.length : rank;
}

/** Errors in file order, then line (or index) order, as one reads them while fixing. */
function byPlace(a: Problem, b: Problem): number {
  if (a.at.file !== b.at.file) {
    const ranks = readingRank(a.at.file) - readingRank(b.at.file);
    if (ranks !== 0) return ranks;
    return a.at.file < b.at.file ? -1 : 1;
  }
  return (a.at.line ?? a.at.index ?? -1) - (b.at.line ?? b.at.index ?? -1);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["kB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** Calls `report` at most every `ms` milliseconds, and always for the last step. */
export function throttled(ms: number, report: (done: number, total: number) => void) {
  let last = 0;
  return (done: number, total: number) => {
    const now = Date.now();
    if (done === total || now - last >= ms) {
      last = now;
      report(done, total);
    }
  };
}
