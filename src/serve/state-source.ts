// Where a refresh gets new station states: a state file read again each time, or the simulator.

import { lstatSync, statSync } from "node:fs";
import { toUserError } from "../errors.js";
import { IndexedMap } from "../indexed-map.js";
import type { Log } from "../log.js";
import { counted } from "../plural.js";
import { acceptedOf, readChangedStates } from "../source/changed-states.js";
import type { Dataset, LiveState } from "../source/dataset.js";
import type { KnownStates } from "../source/known-states.js";
import { namedStations, tooManyMissing } from "../source/missing-stations.js";
import { error, type Problem } from "../source/problems.js";
import {
  readStates,
  type StatesLeftOut,
  type StatesRead,
  type StaticRead,
} from "../source/read-dataset.js";
import { contractKey } from "../source/rules/records.js";
import { statesFileTime } from "../source/source-time.js";
import { type Random, simulate } from "./simulator.js";

export interface StateSource {
  /** For log lines: "states.json", "the simulator". */
  readonly name: string;
  /**
   * New states and when they were known (Dataset's `statesAt`), or the problems that prevent
   * using them (the caller keeps the last good ones).
   */
  read(current: Dataset, now: Date): Promise<MinuteStates>;
}

/** readStates's states and problems, with when the states were known. */
export type MinuteStates = Pick<StatesRead, "states" | "problems" | "leftOut"> & {
  statesAt?: Date;
};

export interface StateFileOptions {
  /** A states file leaving out more than this share of the stations reported before is refused. */
  maxMissingShare: number;
  log: Log;
  /** What the read at start left (readStates): the first refresh checks only what changed since. */
  known?: KnownStates;
}

export { DEFAULT_MAX_MISSING_SHARE } from "../source/missing-stations.js";

export function stateFile(
  path: string,
  staticRead: StaticRead,
  options: StateFileOptions,
): StateSource {
  // Not `options` itself in the closure below: it would hold the first read's records for good.
  const { known: first, ...limits } = options;
  // The last accepted file as bytes beside its states: the next read parses only the records that
  // changed (readChangedStates); when they cannot vouch for a file, the whole read does.
  let accepted = first && acceptedOf(first);
  // The records of the last file read whole, which the next whole read compares with (most of a
  // minute's are the minute before's), kept only while the feed is read whole: ~50 MB of heap and
  // the file's 26 MB text at 100,000 stations, a sixth of a server's heap. Where the bytes can
  // vouch they are let go: they would only save a later fallback less and less as stations
  // report (a whole read at 100,000 stations takes 0.44-0.50 s without them, 0.39-0.45 s with
  // those of 30 minutes before, 0.12-0.22 s with the minute before's).
  let known = accepted ? undefined : first;
  return {
    name: path,
    async read(current) {
      try {
        const unread = notRegularFile(path);
        if (unread)
          return { problems: [{ severity: "error", at: { file: path }, message: unread }] };
        // Taken before the read: a file replaced meanwhile is dated no later than it was known.
        const statesAt = statesFileTime(path);
        const dated = (read: MinuteStates): MinuteStates =>
          read.states && statesAt ? { ...read, statesAt } : read;
        const changed = accepted && (await readChangedStates(path, accepted, staticRead));
        if (changed) {
          const checked = checkMissing(path, current, changed.states, limits, changed.problems);
          if (checked.states) {
            accepted = changed.accepted;
            known = undefined; // read as bytes: see `known`
          }
          return dated(checked);
        }
        const read = await readStates(staticRead, path, known, { reuse: true, leaveOut: true });
        if (!read.states) return withMissingShare(path, current, read, limits.maxMissingShare);
        const checked = checkMissing(path, current, read.states, limits, read.problems, read);
        // A file with records left out is not one to read the next against: the last accepted
        // one stays (a record as it was there is its station's last good state).
        if (read.leftOut) return dated({ ...checked, leftOut: read.leftOut });
        if (checked.states) {
          known = read.known;
          accepted = known && acceptedOf(known, accepted);
        }
        return dated(checked);
      } catch (cause) {
        // A missing file is a UserError from loadStates; report it like any problem of the file.
        // A link that leads nowhere is said as such (its message names the link and its target).
        // A system error (its folder closed to the server: EACCES) is said with what to do.
        const said = isGone(path) ? "not found" : systemSaid(cause, path);
        // A message for the command line names the file first: the problem names it once.
        const message = said.startsWith(`${path} `) ? said.slice(path.length + 1) : said;
        return { problems: [{ severity: "error", at: { file: path }, message }] };
      }
    },
  };
}

/** Whether nothing is at `path`, not even a link; false when that cannot be told (EACCES). */
function isGone(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) === undefined;
  } catch {
    return false;
  }
}

/** What a read's failure says of `path`: a system error with what to do (errors.ts), not Node's words. */
function systemSaid(cause: unknown, path: string): string {
  const said = toUserError(cause);
  const message = said instanceof Error ? said.message : String(said);
  // The problem names the file already.
  return message.replace(` on ${path}:`, ":");
}

/**
 * Why the server cannot read `path` every minute, if it cannot: a pipe or a device is read once
 * (and a read of a pipe nobody writes never ends, holding the refresh and the server's stop).
 */
export function notRegularFile(path: string): string | null {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (!stats || stats.isFile()) return null; // a missing file is said by the read
  if (stats.isDirectory()) return "is a folder, not a file: give the states file itself";
  return "is not a regular file (a pipe or a device?): the server reads it again at every refresh; give a file the exporter replaces";
}

/**
 * A feed that loses stations is news: `{"states":[]}` would leave every station disconnected at its
 * last state. A few missing are logged (each keeps its last state, marked disconnected: see
 * kept-states.ts); more than the allowed share refuses the file and keeps the last release.
 */
function checkMissing(
  path: string,
  current: Dataset,
  states: ReadonlyMap<string, LiveState>,
  options: Omit<StateFileOptions, "known">,
  problems: Problem[],
  leftOut?: StatesLeftOut,
): { states?: ReadonlyMap<string, LiveState>; problems: Problem[] } {
  // The same stations at the same places as the states served (see readStates): none is missing.
  if (states instanceof IndexedMap && states.sameKeys(current.states)) return { states, problems };
  const { missing, refused } = missingFrom(path, current, states, options.maxMissingShare, leftOut);
  if (refused) return { problems: [...problems, refused] };
  if (missing.length === 0) return { states, problems };
  const named = namedStations(missing.map(stationNamed(current)));
  options.log(
    `${path}: ${counted(missing.length, "station")} reported before ${missing.length === 1 ? "is" : "are"} missing (last state kept, marked disconnected): ${named}`,
    "warning",
  );
  return { states, problems };
}

/**
 * A file refused for records in error is refused for its missing share too, in the same minute's
 * log: the stations of the records in error count as present.
 */
function withMissingShare(
  path: string,
  current: Dataset,
  read: StatesRead,
  maxShare: number,
): { problems: Problem[] } {
  const { reported, problems } = read;
  if (!reported) return { problems };
  const { refused } = missingFrom(path, current, reported, maxShare);
  return { problems: refused ? [...problems, refused] : problems };
}

/**
 * The stations served that `present` leaves out, and the file's refusal when too many are, naming
 * those it has no record of and saying the states in error (`leftOut`) apart, as the start and
 * the cron refresh do.
 */
function missingFrom(
  path: string,
  current: Dataset,
  present: { has(key: string): boolean },
  maxShare: number,
  { leftOut, leftOutStations }: StatesLeftOut = {},
): { missing: string[]; refused?: Problem } {
  const missing = [...current.states.keys()].filter((key) => !present.has(key));
  const unreported = () =>
    missing.filter((key) => !leftOutStations?.has(key)).map(stationNamed(current));
  const refused = tooManyMissing(missing.length, current.states.size, maxShare, {
    unreported,
    leftOut,
  });
  return refused ? { missing, refused: error({ file: path }, undefined, refused) } : { missing };
}

/** A station served, by its stationKey, as said (`dublin #42`): with its contract's own name. */
function stationNamed(current: Dataset): (key: string) => string {
  const names = new Map(current.contracts.map(({ name }) => [contractKey(name), name]));
  return (key) => {
    const [contract = "", number] = key.split("/");
    return `${names.get(contract) ?? contract} #${number}`;
  };
}

export function simulator(random: Random, seconds: number): StateSource {
  return {
    name: "the simulator",
    async read(current, now) {
      return {
        states: simulate(current, now, random, seconds),
        statesAt: now,
        problems: [],
      };
    },
  };
}
