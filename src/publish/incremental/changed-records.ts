// A cron refresh's states read against the last accepted states file (kept beside the tree): a
// record whose bytes are the same at the same place is its station's kept state, neither parsed nor
// checked; only the others are. Anything a whole read might say more about is left to it (null).
import type { Contract } from "../../model/contract.js";
import { DEFAULT_PORTAL } from "../../model/portal.js";
import type { Station } from "../../model/station.js";
import { StationState } from "../../model/station-state.js";
import { checkStatesWithAcross } from "../../source/check-states.js";
import { type LiveState, stationKey, toLiveState } from "../../source/dataset.js";
import { NOTHING_UNREAD } from "../../source/load-source.js";
import { parseRecords, type RawRecord } from "../../source/parse-records.js";
import type { Sourced } from "../../source/problems.js";
import { type AcceptedBytes, splitStatesBytes } from "../../source/states-bytes.js";
import type { StationRecords } from "./station-records.js";

/** The static records the states are checked against, as the refresh state keeps them. */
export interface StaticRecords {
  contracts: readonly Sourced<Contract>[];
  stations: StationRecords;
}

/** The last accepted states file as bytes, each record's size, and the station of each record. */
export interface AcceptedStatesBytes extends AcceptedBytes {
  stations: ArrayLike<number>;
}

/**
 * The new states of the stations whose record changed, by station position, and each record's
 * size (kept with the file for the next refresh); null when the file cannot be read so: another
 * layout or record count, a record of another station than the one at its place before, or any
 * problem with a changed record, or bytes not all ASCII (the whole read then says it as usual).
 * The unchanged records are compared where they lie in both files: no text of either file is made
 * but the changed records'.
 *
 * The accepted file held one state per station (the caller checks it): with the same stations at
 * the same places the rules across records (one state per station, every station reported) find
 * again that nothing is wrong, and the rules of one record at a time passed the unchanged ones.
 */
export function changedRecordsOfBytes(
  bytes: Buffer,
  accepted: AcceptedStatesBytes,
  records: StaticRecords,
  file: string,
): { lives: Map<number, LiveState>; sizes: number[] } | null {
  const count = accepted.stations.length;
  if (count !== records.stations.count || accepted.sizes.length !== count) return null;
  const split = splitStatesBytes(bytes, accepted);
  if (split?.sizes.length !== count) return null;
  const raws = split.changed.map(({ index, raw }): RawRecord => ({ raw, at: { file, index } }));
  const lives = checkedChanges(raws, accepted.stations, records);
  return lives && { lives, sizes: split.sizes };
}

/**
 * The changed records parsed and checked, by their stations' positions; null when one is of
 * another station than the accepted record at its place, or has any problem.
 */
function checkedChanges(
  raws: readonly RawRecord[],
  stationsOfAccepted: ArrayLike<number>,
  records: StaticRecords,
): Map<number, LiveState> | null {
  const parsed = parseRecords(StationState, raws);
  if (parsed.problems.length > 0 || parsed.records.length !== raws.length) return null;

  const keys: string[] = [];
  const stations: Sourced<Station>[] = [];
  const positions: number[] = [];
  for (let at = 0; at < raws.length; at++) {
    const { value } = parsed.records[at] as Sourced<StationState>;
    const position = stationsOfAccepted[(raws[at] as RawRecord).at.index ?? -1] ?? -1;
    const station = records.stations.record(position);
    const key = stationKey(value.contract, value.number);
    if (!station || key !== stationKey(station.value.contract, station.value.number)) return null;
    keys.push(key);
    stations.push(station);
    positions.push(position);
  }
  // The rules of one record at a time, against the stations these records are of.
  const checked = checkStatesWithAcross(
    {
      contracts: records.contracts as Sourced<Contract>[],
      stations,
      parkings: [],
      portal: DEFAULT_PORTAL,
    },
    parsed.records,
    NOTHING_UNREAD,
    true,
    { keys, fresh: keys.map((_, at) => at), across: { duplicates: [], unreported: [] } },
  );
  if (checked.problems.length > 0) return null;
  const lives = new Map<number, LiveState>();
  parsed.records.forEach(({ value }, at) => {
    lives.set(positions[at] as number, toLiveState(value));
  });
  return lives;
}

/**
 * For each record of an accepted states file, the station it is of (a position in `stations`);
 * null unless every station has exactly one. `states` are the accepted states in the file's order
 * (readStates keeps it: they are its records, keyed, none twice).
 */
export function stationsOfRecords(
  stations: readonly Station[],
  states: ReadonlyMap<string, LiveState>,
): number[] | null {
  if (states.size !== stations.length) return null;
  const positions = new Map<string, number>();
  stations.forEach((station, position) => {
    positions.set(stationKey(station.contract, station.number), position);
  });
  const found: number[] = [];
  for (const key of states.keys()) {
    const position = positions.get(key);
    if (position === undefined) return null;
    found.push(position);
  }
  return found;
}
