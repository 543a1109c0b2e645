// The rules over a states file's records, against the static source they describe: those of one
// state at a time (over the states their schema refused too) and those across records.
import type { Station } from "../model/station.js";
import type { StationState } from "../model/station-state.js";
import { oncePerObject } from "../once-per-object.js";
import type { StatesAcross } from "./known-states.js";
import { NOTHING_UNREAD, type StaticSource, type Unread } from "./load-source.js";
import type { Problem, Sourced } from "./problems.js";
import { bikesOfDeclaredTypes } from "./rules/gbfs.js";
import { type OwnFieldRule, refusedRecordsChecked } from "./rules/own-fields.js";
import { contractKey } from "./rules/records.js";
import {
  availabilitiesConsistent,
  lastUpdateInRange,
  lastUpdateIsUtcInstant,
  oneStatePerStation,
  stateKeys,
  statesForKnownStations,
  stationsHaveStates,
} from "./rules/states.js";
import type { SalvagedRecord } from "./salvaged-records.js";

/**
 * `statesComplete` false: the states file could not be read as a list (or has none), so stations
 * without a state there are a consequence of that, not news; reporting 400 of them would bury the
 * one that matters. A file with records in error is complete: `reported` then names the stations
 * of all its records, and "no state" is said of the stations with none.
 * `keys`: each state's stationKey, when already known. `fresh`: the positions of the states that
 * the rules of one record at a time must check; the others passed them last time against the same
 * static data (see KnownStates). Default: all. `across`: what the rules across records found for
 * the same keys at the same places, against the same static data; default: they run.
 */
export function checkStates(
  source: StaticSource,
  states: readonly Sourced<StationState>[],
  unread: Unread = NOTHING_UNREAD,
  statesComplete = true,
  known?: { keys: readonly string[]; fresh: readonly number[]; across?: StatesAcross },
): Problem[] {
  return checkStatesWithAcross(source, states, unread, statesComplete, known).problems;
}

/** checkStates, and what its rules across records found, for the next file with the same keys. */
export function checkStatesWithAcross(
  source: StaticSource,
  states: readonly Sourced<StationState>[],
  unread: Unread = NOTHING_UNREAD,
  statesComplete = true,
  known?: {
    keys: readonly string[];
    fresh: readonly number[];
    across?: StatesAcross;
    /** The stations of every record, those in error too, when some are (see readStates). */
    reported?: ReadonlySet<string>;
  },
): { problems: Problem[]; across: StatesAcross } {
  const keys = known?.keys ?? stateKeys(states);
  const checked = known
    ? known.fresh.map((index) => states[index] as Sourced<StationState>)
    : states;
  const checkedKeys = known ? known.fresh.map((index) => keys[index] as string) : keys;
  const across = known?.across ?? {
    duplicates: oneStatePerStation(states, keys),
    // A station on an unknown contract is an error already: "no state" would be its echo.
    unreported: statesComplete
      ? stationsHaveStates(onKnownContracts(source), states, known?.reported ?? keys)
      : [],
  };
  // A station that failed its schema is left out of the rules: its state is not "no station".
  const references =
    unread.stations === "all"
      ? []
      : statesForKnownStations(source.stations, ...notOf(unread.stations, checked, checkedKeys));
  const problems = [
    ...across.duplicates,
    ...lastUpdateIsUtcInstant(checked, contractZones(source.contracts)),
    ...lastUpdateInRange(checked),
    ...references,
    ...availabilitiesConsistent(source.stations, checked, checkedKeys),
    ...across.unreported,
    ...bikesOfDeclaredTypes(source.contracts, checked),
  ];
  return { problems, across };
}

/**
 * The rules of one state at a time, as own-fields.ts runs them over a record its schema refused:
 * on the fields that passed, those whose fields it needs passed. Against the static source as
 * checkStates holds a state to it (its station, its contract's time zone and kinds of bike).
 */
function stateRules(source: StaticSource, unread: Unread): OwnFieldRule<StationState>[] {
  return [
    {
      needs: ["lastUpdate"],
      check: (states) => lastUpdateIsUtcInstant(states, contractZones(source.contracts)),
    },
    { needs: ["lastUpdate"], check: (states) => lastUpdateInRange(states) },
    {
      needs: ["contract", "number"],
      check: (states) => {
        if (unread.stations === "all") return [];
        const keys = stateKeys(states);
        return statesForKnownStations(source.stations, ...notOf(unread.stations, states, keys));
      },
    },
    {
      needs: ["contract", "number", "mainStands"],
      check: (states) => availabilitiesConsistent(source.stations, states),
    },
    { needs: ["contract"], check: (states) => bikesOfDeclaredTypes(source.contracts, states) },
  ];
}

/**
 * The rules of one state at a time over the states their schema refused (`refused`, as far as
 * they read), so that one run says every mistake of a state: `"status": "open"` does not hide a
 * lastUpdate without its time zone, nor bikes beyond the station's capacity, beside it.
 */
export function refusedStatesChecked(
  source: StaticSource,
  refused: readonly SalvagedRecord<StationState>[],
  unread: Unread = NOTHING_UNREAD,
): Problem[] {
  if (refused.length === 0) return [];
  return refusedRecordsChecked(stateRules(source, unread), refused);
}

/** The states (and their keys) not of a station in `stations`: every one when it is empty. */
function notOf(
  stations: ReadonlySet<string>,
  states: readonly Sourced<StationState>[],
  keys: readonly string[],
): [readonly Sourced<StationState>[], readonly string[]] {
  if (stations.size === 0) return [states, keys];
  const kept = states
    .map((_, position) => position)
    .filter((p) => !stations.has(keys[p] as string));
  return [kept.map((p) => states[p] as Sourced<StationState>), kept.map((p) => keys[p] as string)];
}

/** Each contract's time zone by its contractKey, for the offset a local time has in it. */
const contractZones = oncePerObject(
  (contracts: StaticSource["contracts"]): ReadonlyMap<string, string> =>
    new Map(
      contracts.flatMap(({ value }) =>
        value.timezone ? [[contractKey(value.name), value.timezone] as const] : [],
      ),
    ),
);

/** The stations on a contract of the source's: every one, as a valid source has them. */
function onKnownContracts({ contracts, stations }: StaticSource): readonly Sourced<Station>[] {
  const names = new Set(contracts.map(({ value }) => contractKey(value.name)));
  const known = stations.filter(({ value }) => names.has(contractKey(value.contract)));
  return known.length === stations.length ? stations : known;
}
