// What serve's start says of the stations its first states file leaves without a state, and its
// refusal of the file when they are more than --max-missing allows, as a refresh refuses one.
import type { Station } from "../model/station.js";
import { statesLeftOut, tooManyMissing } from "../source/missing-stations.js";
import { error, type Problem, type Sourced } from "../source/problems.js";
import {
  NO_STATES,
  ofListedStations,
  type StatesRead,
  saidLeftOut,
} from "../source/read-dataset.js";
import { NO_STATE } from "../source/rules/states.js";

/** What the start knows beside its read. */
export interface StartRead {
  /** The states file. */
  path: string;
  /** The stations the static source lists. */
  stations: readonly Sourced<Station>[];
  maxMissingShare: number;
  /** A tree's states are kept for the stations the file leaves out (statesKeptFromTree). */
  lastKept: boolean;
  /** The simulator gives every station a state: one the file has no record of is not without one. */
  simulated: boolean;
}

/**
 * The start's read's states left out, said as a refresh says them (their stations published
 * without a state); and, when more of the stations the static source lists than --max-missing
 * allows would go without one (the file has no record of them, or their state is in error), the
 * file's refusal, naming those it has no record of, then each state in error as an error. Counted
 * against the stations listed, with or without a tree: at a first start there is nothing to keep
 * instead, and the feed's stations would be published as never reported. A state of a station the
 * source does not list (yet) leaves none of them without one: a warning, whatever their number.
 */
export function missingAtStart(
  read: Pick<StatesRead, "problems" | "leftOut">,
  start: StartRead,
): Problem[] {
  const leftOut = read.leftOut ?? [];
  const listed = ofListedStations(leftOut);
  const unreported = start.simulated ? [] : unreportedStations(read.problems, start.stations);
  const refused = tooManyMissing(
    unreported.length + statesLeftOut(listed),
    start.stations.length,
    start.maxMissingShare,
    {
      unreported: unreported.map(({ value }) => `${value.contract} #${value.number}`),
      leftOut: listed,
      of: "the static source lists",
    },
  );
  const inError = new Set(refused ? listed : []);
  const said = leftOut.map(
    (problem): Problem =>
      inError.has(problem)
        ? { ...problem, severity: "error" }
        : // With a tree's states kept, a station left out keeps its last one, as after a refresh.
          saidLeftOut(problem, !start.lastKept),
  );
  return refused ? [error({ file: start.path }, undefined, refused), ...said] : said;
}

/**
 * The stations the states file has no record of, as the rules found them: a warning at each one's
 * own record (NO_STATE), or one for a file whose list is empty (NO_STATES). A station whose record
 * is in error has a record: it is not one of them.
 */
function unreportedStations(
  problems: readonly Problem[],
  stations: readonly Sourced<Station>[],
): readonly Sourced<Station>[] {
  if (problems.some(({ message }) => message === NO_STATES)) return stations;
  const at = new Set(problems.filter(({ message }) => message === NO_STATE).map(({ at }) => at));
  return at.size === 0 ? [] : stations.filter((station) => at.has(station.at));
}
