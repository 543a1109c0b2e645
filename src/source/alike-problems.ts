// One mistake repeated over a file (every lastUpdate without its Z) is one kind of problem: its
// first few are listed as they are, then one line counts the rest, so that it reads as one mistake.
import { escapeControls } from "../errors.js";
import { counted } from "../plural.js";
import { formatProblem, type Problem } from "./problems.js";

/**
 * What changes from one record's message to the next: quoted values, times, numbers. The rest of
 * a message says what the mistake is (`"…" lacks a time zone`).
 */
const VALUES =
  /"(?:[^"\\]|\\.)*"|\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:\d{2})?|(?<![\w.])-?\d+(?:[.,]\d+)*/g;

/**
 * A line counting fewer would stand for at most one line less: a kind is counted only when at
 * least this many of it are past the ones listed.
 */
const FEWEST_COUNTED = 3;

/** A line of a list of problems: one problem, or the rest of a kind after its first ones. */
export type Listed = { problem: Problem } | { rest: readonly Problem[]; inAll: number };

/**
 * The kind of a problem located in a record (same severity, file, field, and message once its
 * values are set aside); none for a problem of a whole file, which is said once anyway. A quoted
 * value without digits is a word of the kind, not a value: `unknown contract "toulouse"` and
 * `"dublin"`, `got "OPN"` and `"closed"` are two mistakes, each listed, not one counted.
 */
function kindOf(problem: Problem): string | undefined {
  const { at } = problem;
  if (at.line === undefined && at.index === undefined) return undefined;
  const words = problem.message.replace(VALUES, (value) =>
    value.startsWith('"') && !/\d/.test(value) ? value : "\u0000",
  );
  const consequence = problem.consequence?.one ?? null;
  return JSON.stringify([problem.severity, at.file, problem.field ?? null, words, consequence]);
}

/**
 * `problems` in their order, each kind of more than `shown` + 2 said by its first `shown` and, in
 * the place of the next one, a line for the rest of them.
 */
export function listAlike(problems: readonly Problem[], shown: number): Listed[] {
  const kinds = problems.map(kindOf);
  const ofKind = new Map<string, Problem[]>();
  problems.forEach((problem, at) => {
    const kind = kinds[at];
    if (kind === undefined) return;
    const members = ofKind.get(kind);
    if (members) members.push(problem);
    else ofKind.set(kind, [problem]);
  });
  const listed: Listed[] = [];
  const seen = new Map<string, number>();
  problems.forEach((problem, at) => {
    const kind = kinds[at];
    const members = kind === undefined ? undefined : ofKind.get(kind);
    if (kind === undefined || !members || members.length - shown < FEWEST_COUNTED) {
      listed.push({ problem });
      return;
    }
    const before = seen.get(kind) ?? 0;
    seen.set(kind, before + 1);
    if (before < shown) listed.push({ problem });
    else if (before === shown) listed.push({ rest: members.slice(shown), inAll: members.length });
  });
  return listed;
}

/** How many problems a listing says, one by one or counted. */
export const problemsIn = (listed: readonly Listed[]): number =>
  listed.reduce((sum, line) => sum + ("problem" in line ? 1 : line.rest.length), 0);

/** Lines saying problems: at most `most`, a kind's rest past its first `shown` counted in one. */
export interface AlikeLines {
  lines: string[];
  /** How many problems no line says. */
  left: number;
  /** Whether a line counts problems of a kind. */
  counted: boolean;
}

export function alikeLines(problems: readonly Problem[], shown: number, most: number): AlikeLines {
  const listed = listAlike(problems, shown).slice(0, most);
  return {
    lines: listed.map((line) =>
      "problem" in line ? formatProblem(line.problem) : formatRest(line.rest, line.inAll),
    ),
    left: problems.length - problemsIn(listed),
    counted: listed.some((line) => "rest" in line),
  };
}

/**
 * `states.json[3]…[412] lastUpdate: the same in 410 more records (413 in all): "…" lacks a time
 * zone …`: the values the rest share are given, the others are `…`.
 */
export function formatRest(rest: readonly Problem[], inAll: number): string {
  const [first] = rest;
  if (!first) throw new Error("formatRest needs at least one problem");
  const { at } = first;
  const positions = rest.map(({ at }) => at.line ?? at.index ?? 0);
  const from = positions.reduce((least, position) => Math.min(least, position));
  const to = positions.reduce((most, position) => Math.max(most, position));
  const place = at.line !== undefined ? `${at.file}:${from}–${to}` : `${at.file}[${from}]…[${to}]`;
  const field = first.field ? ` ${first.field}` : "";
  const words = first.message.split(VALUES);
  const values = sharedValues(rest);
  const said = words.reduce((text, word, slot) => text + (values[slot - 1] ?? "") + word);
  const message = first.consequence ? `${said}: ${first.consequence.many}` : said;
  // Values from files reach terminals and logs: an escape sequence in a name must stay text.
  return escapeControls(
    `${place}${field}: the same in ${counted(rest.length, "more record")} (${inAll} in all): ${message}`,
  );
}

/** Each value slot of the problems' messages: the value when they all give it, else `…`. */
function sharedValues(problems: readonly Problem[]): string[] {
  const [first, ...others] = problems.map(({ message }) => message.match(VALUES) ?? []);
  return (first ?? []).map((value, slot) => {
    if (others.every((values) => values[slot] === value)) return value;
    return value.startsWith('"') ? '"…"' : "…";
  });
}
