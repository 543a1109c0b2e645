// A feed that loses stations is news: `{"states":[]}` would leave every station disconnected. The
// refusal of a states file that leaves out too many of the stations reported before (serve's
// minute refresh and the cron refresh alike).

import { percent } from "../percent.js";
import { counted } from "../plural.js";
import { formatProblem, type Problem } from "./problems.js";

export const DEFAULT_MAX_MISSING_SHARE = 0.1;
/**
 * The share of the stations published an edit of the static source may remove (--max-removed): a
 * tenth of the network gone at once is no edit, but a wrong folder or a file cut short.
 */
export const DEFAULT_MAX_REMOVED_SHARE = 0.1;

/**
 * What a refusal for too many stations left out adds when the file's records in error were left
 * out too, the first saying why: of the stations counted (a state with a wrong value) or of none
 * of them (another network's file, whose every station is unknown here), so not said to be theirs.
 */
function inErrorAmong(leftOut: readonly Problem[] | undefined): string {
  const [first] = leftOut ?? [];
  if (!leftOut || !first) return "";
  const states = statesLeftOut(leftOut);
  return `; ${counted(states, "state")} in error left out (${formatProblem(first)}${leftOut.length > 1 ? ", …" : ""})`;
}

/** How many states the problems of states left out are of (a record may have several). */
export const statesLeftOut = (leftOut: readonly Problem[]): number =>
  new Set(leftOut.map(({ at }) => at.index)).size;

/**
 * Why a changed static source at `source` is refused, or null when its no longer listing `removed`
 * of the `had` stations published is allowed (--max-removed; serve's edit and the cron refresh).
 */
export function tooManyRemoved(
  source: string,
  removed: number,
  had: number,
  maxShare: number,
): string | null {
  if (had === 0 || removed / had <= maxShare) return null;
  return `${source} no longer lists ${removed} of the ${had} stations published (${percent(removed / had)}), more than --max-removed ${percent(maxShare)} allows`;
}

/** Stations named in one line before the rest are counted: a whole network gone is one line. */
const MISSING_NAMED = 10;

/** `dublin #12, dublin #34 and 331 more`: the first of `names`, the rest counted. */
export function namedStations(names: readonly string[]): string {
  const more = names.length - MISSING_NAMED;
  return `${names.slice(0, MISSING_NAMED).join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
}

/** What tooManyMissing is told beside the counts. */
export interface MissingSaid {
  /**
   * The stations the file has no record of (`dublin #12`), among those counted: named after the
   * refusal, the states in error being said apart (a station never in the file has no record to
   * point to). A function is called only to refuse: a minute's refresh names none otherwise.
   */
  unreported?: readonly string[] | (() => readonly string[]);
  /** The file's states in error, left out: said after the refusal, as its cause (inErrorAmong). */
  leftOut?: readonly Problem[] | undefined;
  /** Which stations `had` counts, said after "of the N stations"; by default "reported before". */
  of?: string;
}

/**
 * Why the file is refused, or null when `missing` of the `had` stations reported before is allowed.
 * Every command that refuses a states file for --max-missing says it with these words (serve's
 * start and minute refresh, the cron refresh), and so with the states in error among its cause.
 */
export function tooManyMissing(
  missing: number,
  had: number,
  maxShare: number,
  { unreported = [], leftOut, of = "reported before" }: MissingSaid = {},
): string | null {
  if (had === 0 || missing / had <= maxShare) return null;
  const named = typeof unreported === "function" ? unreported() : unreported;
  return (
    `leaves out ${missing} of the ${counted(had, "station")} ${of} (${percent(missing / had)}), ` +
    `more than --max-missing ${percent(maxShare)} allows: fix the feed, or raise --max-missing if stations really left` +
    (named.length > 0 ? `; ${notInIt(named, leftOut ?? [])}` : "") +
    inErrorAmong(leftOut)
  );
}

/**
 * The stations named as having no record in the file: a state in error that does not say its
 * station (no contract, a number that is no station's) may be the record of any of them, so they
 * are not all said to be "not in it" when there is one.
 */
function notInIt(named: readonly string[], leftOut: readonly Problem[]): string {
  const unsaid = statesLeftOut(leftOut.filter(({ at }) => at.station === undefined));
  const or =
    unsaid === 0
      ? ""
      : `, or of ${unsaid === 1 ? "its state" : `its ${unsaid} states`} in error that ${unsaid === 1 ? "does" : "do"} not say ${unsaid === 1 ? "its" : "their"} station`;
  return `${counted(named.length, "station")} not in it${or} (${namedStations(named)})`;
}

/** A station no longer listed, as said: its contract, number and name. */
export interface RemovedStation {
  contract: string;
  number: number;
  name: string;
}

/** Stations named one by one, the rest counted: a whole network gone is one line. */
const REMOVED_NAMED = 5;

/**
 * What an edit of the static source that no longer lists some stations says once published: a
 * station an exporter lost, within --max-removed, would otherwise vanish from every answer with
 * nothing said but a count. `stationOf` gives each item's station. Null when none is removed.
 */
export function removedStationsSaid<T>(
  removed: readonly T[],
  stationOf: (item: T) => RemovedStation,
): string | null {
  if (removed.length === 0) return null;
  // Only the named are looked up: a cron refresh parses a kept record for each.
  const named = removed.slice(0, REMOVED_NAMED).map((item) => {
    const { contract, number, name } = stationOf(item);
    return `${contract} #${number} ${JSON.stringify(name)}`;
  });
  const more = removed.length - named.length;
  return `${counted(removed.length, "station")} no longer listed by the static source, no longer published: ${named.join(", ")}${more > 0 ? ` (and ${more} more)` : ""}`;
}
