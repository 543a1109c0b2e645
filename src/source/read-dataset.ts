// The whole source pipeline: read → schema → rules → Dataset, or every problem found.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { setImmediate } from "node:timers/promises";
import { IndexedMap } from "../indexed-map.js";
import type { StationState } from "../model/station-state.js";
import { checkStaticSource } from "./check.js";
import { checkStatesWithAcross, refusedStatesChecked } from "./check-states.js";
import {
  assembleDataset,
  type Dataset,
  type LiveState,
  stationKey,
  toLiveState,
} from "./dataset.js";
import type { KnownStates } from "./known-states.js";
import {
  loadStates,
  loadStaticSource,
  lookalike,
  type StaticSource,
  stationKeyOf,
  type Unread,
} from "./load-source.js";
import { hasErrors, type Problem, type Sourced, warning } from "./problems.js";
import { sourceTimeProblems, statesFileTime } from "./source-time.js";
import { STATES_FILE } from "./states-file.js";

export interface ReadResult {
  /** Undefined when any problem is an error. */
  dataset?: Dataset;
  problems: Problem[];
  /** The static part as read, for what a cron refresh keeps beside the tree. */
  staticRead?: StaticRead;
  /** With `leaveOut`: the states left out for their errors, as warnings (see readStates). */
  leftOut?: Problem[];
  /** With `leftOut`: the stations of those states (see StatesRead). */
  leftOutStations?: ReadonlySet<string>;
}

export interface StaticRead {
  source: StaticSource;
  /** What of the static files the rules could not look up (see Unread). */
  unread: Unread;
  problems: Problem[];
  /**
   * What the commands say of the source beside its problems, once each: no fault, a fact its
   * publisher may not know (no portal.json: see noPortalNote).
   */
  notes: readonly string[];
}

/**
 * Reads `dir`, with states from `stateFile` (default: `dir/states.json`, optional there).
 * `leaveOut`: a minute's read (see readStates).
 */
export async function readDataset(
  dir: string,
  stateFile?: string,
  { leaveOut = false }: { leaveOut?: boolean } = {},
): Promise<ReadResult> {
  const read = await readStatic(dir);
  const statesPath = stateFile ?? join(dir, STATES_FILE);
  const problems = [...read.problems];
  let states: ReadonlyMap<string, LiveState> = new Map();
  let statesAt: Date | undefined;
  let leftOut: StatesLeftOut = {};
  if (stateFile !== undefined || existsSync(statesPath)) {
    // Taken before the read: a file replaced meanwhile is then dated no later than it was known.
    statesAt = statesFileTime(statesPath);
    const result = await readStates(read, statesPath, undefined, { leaveOut });
    problems.push(...result.problems);
    if (result.states) states = result.states;
    if (result.leftOut)
      leftOut = { leftOut: result.leftOut, leftOutStations: result.leftOutStations };
  } else {
    problems.push(
      warning(
        { file: statesPath },
        undefined,
        `no state file: every station is published as CLOSED and disconnected${lookalike(dir, "states", false)}`,
      ),
    );
  }
  if (hasErrors(problems)) return { problems };
  const dataset = assembleDataset(read.source, states, statesAt);
  return { dataset, problems, staticRead: read, ...leftOut };
}

export async function readStatic(dir: string): Promise<StaticRead> {
  const loaded = await loadStaticSource(dir);
  const problems = [
    ...loaded.problems,
    ...checkStaticSource(loaded.value, loaded.unread, loaded.refused),
    ...sourceTimeProblems(dir),
  ];
  return { source: loaded.value, unread: loaded.unread, problems, notes: loaded.notes };
}

export interface StatesRead {
  /** Undefined when any problem is an error. */
  states?: ReadonlyMap<string, LiveState>;
  problems: Problem[];
  /** With the states: hand it to the next readStates against the same static data. */
  known?: KnownStates;
  /**
   * Without the states (an error in a record): the stations the file has a record of, passed or
   * not, for the share of stations missing from it (a bad record is of a station present); absent
   * too when the file could not be read as records (not JSON, cut short).
   */
  reported?: ReadonlySet<string>;
  /**
   * With `leaveOut`: the errors of the records left out, as warnings (said with saidLeftOut);
   * their stations are not in `states`: each keeps its last published state, as a missing one does.
   */
  leftOut?: Problem[];
  /**
   * With `leftOut`: the stations of those records (stationKey), where a record says which. The file
   * has a record of each: a refusal for --max-missing says them apart from those it has none of.
   */
  leftOutStations?: ReadonlySet<string>;
}

/** A read's states in error, left out, and their stations: what a refusal for --max-missing says. */
export type StatesLeftOut = Pick<StatesRead, "leftOut" | "leftOutStations">;

/**
 * Reads and checks a states file against the static data; the states only when there is no error.
 * With `known` (what the last accepted read of the same static data left), a record equal to the
 * one at its position there is neither parsed nor checked again, record by record: only the
 * rules across records (one state per station, stations without a state) see them all, and when
 * every station's state is at the same place as last time, they find what they found then.
 * `reuse`: for a reader that reads the file again and again (a server, every minute), see loadStates.
 * `leaveOut`: for a minute's read (a refresh, the server's), the records in error are left out
 * and said, the others read: a new station in the feed before the static source lists it, or one
 * station's bad count, must not stop the whole network's states. The file itself in error (not
 * JSON, cut short) is refused as ever; so is one with too many stations left out (--max-missing).
 */
export async function readStates(
  read: Pick<StaticRead, "source" | "unread">,
  path: string,
  known?: KnownStates,
  { reuse = false, leaveOut = false }: { reuse?: boolean; leaveOut?: boolean } = {},
): Promise<StatesRead> {
  const usable = known?.source === read.source ? known : undefined;
  const loaded = await loadStates(path, path, usable, reuse);
  await setImmediate(); // between reading and checking: a server answers meanwhile
  const readWhole = !hasErrors(loaded.problems);
  const records = loaded.value;
  const keys: string[] = new Array(records.length);
  const fresh: number[] = [];
  loaded.knownAt.forEach((at, position) => {
    const record = records[position] as Sourced<StationState>;
    if (at < 0) fresh.push(position);
    keys[position] =
      at < 0 || !usable
        ? stationKey(record.value.contract, record.value.number)
        : (usable.keys[at] as string);
  });
  // Read whole, the records are the file's, in its order: the known ones are at their own place.
  const sameKeys =
    usable !== undefined &&
    readWhole &&
    records.length === usable.keys.length &&
    fresh.every((position) => keys[position] === usable.keys[position]);
  // An empty list would say "no state" once for each station: said once, of the file.
  const empty = loaded.raw.length === 0 && read.source.stations.length > 0;
  // A record in error is still of its station: "no state" is for the stations with no record. A
  // file not read as records at all (cut short) tells of none: no share of them is missing from it.
  const unreadable = !readWhole && loaded.raw.length === 0;
  const reported = readWhole || unreadable ? undefined : reportedStations(loaded.raw);
  const checked = checkStatesWithAcross(read.source, records, read.unread, !empty, {
    keys,
    fresh,
    ...(sameKeys ? { across: usable.across } : {}),
    ...(reported ? { reported } : {}),
  });
  const problems = [
    ...loaded.problems,
    ...refusedStatesChecked(read.source, loaded.salvaged, read.unread),
    ...(empty && readWhole ? [noStates(path)] : []),
    ...checked.problems,
  ];
  if (hasErrors(problems)) {
    const recordsLeft =
      leaveOut && !unreadable ? withoutRecordsInError(problems, path, loaded.raw) : null;
    if (recordsLeft) {
      const keep = records.flatMap((record, position) =>
        recordsLeft.refused.has(record.at.index ?? -1) ? [] : [position],
      );
      const live = keep.map((position) =>
        toLiveState((records[position] as Sourced<StationState>).value),
      );
      const states = IndexedMap.fromLists(
        keep.map((position) => keys[position] as string),
        live,
      ) as IndexedMap<string, LiveState>;
      const { problems: kept, leftOut } = recordsLeft;
      // Each left out at its station where its record says which (withoutRecordsInError).
      const leftOutStations = new Set(leftOut.flatMap(({ at }) => at.station ?? []));
      return { states, problems: kept, leftOut, leftOutStations };
    }
    return { problems, ...(reported ? { reported } : {}) };
  }
  const live = loaded.knownAt.map((at, position) =>
    at < 0 || !usable
      ? toLiveState((records[position] as Sourced<StationState>).value)
      : (usable.live[at] as LiveState),
  );
  // No error: no key twice (oneStatePerStation).
  const states = sameKeys
    ? usable.states.withValues(live)
    : (IndexedMap.fromLists(keys, live) as IndexedMap<string, LiveState>);
  return {
    states,
    problems,
    known: {
      source: read.source,
      raw: loaded.raw,
      records,
      keys: states.keyList,
      live,
      states,
      across: checked.across,
      ...(loaded.texts ? { texts: loaded.texts } : {}),
      ...(loaded.text === undefined ? {} : { text: loaded.text }),
    },
  };
}

/**
 * The problems with every error of a record (not of the file) taken out as a warning saying it
 * is left out, placed at its station where the record says which (RecordRef's `station`), and
 * those records' positions in the file; null when an error is the file's.
 */
function withoutRecordsInError(
  problems: readonly Problem[],
  path: string,
  raw: readonly unknown[],
): { problems: Problem[]; leftOut: Problem[]; refused: Set<number> } | null {
  const refused = new Set<number>();
  const leftOut: Problem[] = [];
  const kept: Problem[] = [];
  for (const problem of problems) {
    if (problem.severity !== "error") kept.push(problem);
    else if (problem.at.file !== path || problem.at.index === undefined) return null;
    else {
      refused.add(problem.at.index);
      const station = stationKeyOf(asFields(raw[problem.at.index]));
      const at = station === undefined ? problem.at : { ...problem.at, station };
      leftOut.push({ ...problem, at, severity: "warning" });
    }
  }
  return { problems: kept, leftOut, refused };
}

const asFields = (record: unknown): Record<string, unknown> =>
  typeof record === "object" && record !== null ? (record as Record<string, unknown>) : {};

/**
 * A state's error (of StatesRead's `leftOut`), as said to whoever runs the refresh; `first`: of
 * a server's start, which has no state of the station to keep.
 */
export const saidLeftOut = (problem: Problem, first = false): Problem => ({
  ...problem,
  consequence: UNKNOWN_STATION.test(problem.message)
    ? {
        one: "this state is left out until the static source lists the station",
        many: "these states are left out until the static source lists their stations",
      }
    : first
      ? {
          one: "this state is left out, the station published without one (CLOSED) until the feed gives a good one",
          many: "these states are left out, each station published without one (CLOSED) until the feed gives a good one",
        }
      : {
          one: "this state is left out, the station keeps its last published state",
          many: "these states are left out, each station keeps its last published state",
        },
});

/** The rules' words for a state of a station the static source does not list. */
export const UNKNOWN_STATION = /^no station (\d+ in contract|has contract) /;

/**
 * The problems of StatesRead's `leftOut` that are of states of stations the static source lists:
 * each leaves its station without this state. A state of a station not listed (yet), or of a
 * contract not published, leaves none of the network's stations without one.
 */
export function ofListedStations(leftOut: readonly Problem[]): Problem[] {
  const unlisted = new Set(
    leftOut.filter(({ message }) => UNKNOWN_STATION.test(message)).map(({ at }) => at.index),
  );
  return leftOut.filter(({ at }) => !unlisted.has(at.index));
}

/**
 * The stations the raw records are of, where a record names its contract and number (a number
 * written as text, "55", still says which station: its record is in error, not missing).
 */
function reportedStations(raw: readonly unknown[]): Set<string> {
  const keys = new Set<string>();
  for (const record of raw) {
    const key = stationKeyOf(asFields(record));
    if (key !== undefined) keys.add(key);
  }
  return keys;
}

export const NO_STATES =
  "has no states: every station is published as CLOSED and disconnected, with lastUpdate null";

const noStates = (path: string): Problem => warning({ file: path }, undefined, NO_STATES);
