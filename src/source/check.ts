// Runs every rule over the static source's loaded records (their own fields, and across records) and
// collects all problems found; the states file's are in check-states.ts.
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
import { systemIdsUnique } from "./rules/gbfs.js";
import {
  CONTRACT_RULES,
  ownFieldsChecked,
  PARKING_RULES,
  STATION_RULES,
} from "./rules/own-fields.js";
import { positionsPrecise } from "./rules/positions-precise.js";
import {
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
