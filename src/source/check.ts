// Runs every cross-record rule over loaded source records and collects all problems found.
import type { Station } from "../model/station.js";
import type { StationState } from "../model/station-state.js";
import { oncePerObject } from "../once-per-object.js";
import type { StatesAcross } from "./known-states.js";
import {
  NONE_REFUSED,
  NOTHING_UNREAD,
  type RefusedRecords,
  type StaticSource,
  type Unread,
  type UnreadKeys,
} from "./load-source.js";
import type { Problem, Sourced } from "./problems.js";
import { contractNamesUnique } from "./rules/contracts.js";
import { bikesOfDeclaredTypes, systemIdsUnique } from "./rules/gbfs.js";
import {
  CONTRACT_RULES,
  type OwnFieldRule,
  ownFieldsChecked,
  PARKING_RULES,
  refusedRecordsChecked,
  STATION_RULES,
} from "./rules/own-fields.js";
import { positionsPrecise } from "./rules/positions-precise.js";
import {
  contractKey,
  contractsHaveStations,
  contractsNamedByNone,
  knownContracts,
  nameKey,
  onTheirContracts,
  parkingNumbersUniqueInContract,
  parkingsOnParkingContracts,
  positionsNearTheirContract,
  stationNumbersUniqueInContract,
} from "./rules/records.js";
import {
  availabilitiesConsistent,
  lastUpdateInRange,
  lastUpdateIsUtcInstant,
  oneStatePerStation,
  stateKeys,
  statesForKnownStations,
  stationsHaveStates,
} from "./rules/states.js";
import { positionsInTimeZoneRegion } from "./rules/time-zone-region.js";
import { zipCodesWhole } from "./rules/zip-codes.js";
import type { SalvagedRecord } from "./salvaged-records.js";

// The rules run over the records that passed their schema: one run lists both kinds of problem
// (those of a record's own fields run over the rest of a refused one too: see own-fields.ts).
// A rule that looks records up in another file leaves alone those referring to what was not read
// there (see Unread), and runs only when it can tell which those are.
export function checkStaticSource(
  { contracts, stations, parkings }: StaticSource,
  unread: Unread = NOTHING_UNREAD,
  refused: RefusedRecords = NONE_REFUSED,
): Problem[] {
  const namedByNone = contractsNamedByNone(
    contracts,
    stations,
    parkings,
    contractsOf(unread.stations),
  );
  const references =
    unread.contracts === "all"
      ? []
      : [
          ...knownContracts(contracts, notOn(unread.contracts, stations), namedByNone),
          ...knownContracts(contracts, notOn(unread.contracts, parkings)),
        ];
  // Contracts whose positions lie outside their time zone's part of the world: said once each.
  const flagged = new Set<string>();
  // A refused record's position is checked with its contract's others when those fields passed:
  // one run says it far away beside its other mistake, not the run after it is fixed.
  const positioned = {
    stations: withRefusedPositions(stations, refused.stations),
    parkings: withRefusedPositions(parkings, refused.parkings),
  };
  const placed = onTheirContracts(contracts, positioned.stations, positioned.parkings);
  return [
    ...contractNamesUnique(contracts),
    ...ownFieldsChecked(CONTRACT_RULES, contracts),
    ...systemIdsUnique(contracts),
    ...references,
    ...contractsHaveStations(namedByNone),
    ...parkingsOnParkingContracts(contracts, parkings),
    ...stationNumbersUniqueInContract(stations),
    ...parkingNumbersUniqueInContract(parkings),
    ...ownFieldsChecked(STATION_RULES, stations),
    ...ownFieldsChecked(PARKING_RULES, parkings),
    ...positionsPrecise("station", positioned.stations),
    ...positionsPrecise("parking", positioned.parkings),
    ...zipCodesWhole(contracts, parkings),
    ...positionsInTimeZoneRegion(contracts, placed, flagged),
    ...positionsNearTheirContract(placed, flagged),
  ];
}

type Positioned = Sourced<{ contract: string; latitude: number; longitude: number }>;

/**
 * `records` and the `refused` whose contract and coordinates passed their schema, in the file's
 * order (the position rules say a contract's problem at its first record).
 */
function withRefusedPositions(
  records: readonly Positioned[],
  refused: readonly SalvagedRecord<Positioned["value"]>[],
): readonly Positioned[] {
  const positioned = refused.filter(({ failedFields }) =>
    POSITION_FIELDS.every((field) => !failedFields.has(field)),
  );
  if (positioned.length === 0) return records;
  return [...records, ...positioned].sort(
    (one, other) => (one.at.index ?? 0) - (other.at.index ?? 0),
  );
}

const POSITION_FIELDS = ["contract", "latitude", "longitude"] as const;

/** The contracts (their names' keys) of stations by their keys (stationKey). */
function contractsOf(stations: UnreadKeys): UnreadKeys {
  if (stations === "all") return "all";
  return new Set([...stations].map((key) => key.slice(0, key.lastIndexOf("/"))));
}

/** The records not on a contract in `contracts` (its name's key): every one when it is empty. */
function notOn<T extends { contract: string }>(
  contracts: ReadonlySet<string>,
  records: readonly Sourced<T>[],
): readonly Sourced<T>[] {
  if (contracts.size === 0) return records;
  // A contract refused for spaces around its name ("toulouse ") is the one its records name.
  return records.filter(({ value }) => !contracts.has(nameKey(value.contract)));
}

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
