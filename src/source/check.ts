// Runs every cross-record rule over loaded source records and collects all problems found.
import type { StationState } from "../model/station-state.js";
import type { StatesAcross } from "./known-states.js";
import type { Completeness, StaticSource } from "./load-source.js";
import type { Problem, Sourced } from "./problems.js";
import { contractNamesPathSafe, contractNamesUnique } from "./rules/contracts.js";
import {
  bikesOfDeclaredTypes,
  electricalBikesHaveRange,
  gbfsFieldsPresent,
  languagesUnique,
  licenceStated,
  licenseIdsKnown,
  openingHoursValid,
  timezonesKnown,
} from "./rules/gbfs.js";
import {
  coordinatesInRange,
  knownContracts,
  parkingNumbersUniqueInContract,
  parkingsOnParkingContracts,
  positionsNearTheirContract,
  stationNumbersUniqueInContract,
  totalStandsFit,
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
import { textPublishable } from "./rules/text.js";

// A rule that looks records up in another file runs only when that file was read without error,
// so that one bad contract does not turn into "unknown contract" on each of its stations.
const ALL: Completeness = { contracts: true, stations: true };

export function checkStaticSource(
  { contracts, stations, parkings }: StaticSource,
  complete: Completeness = ALL,
): Problem[] {
  const references = complete.contracts
    ? [
        ...knownContracts(contracts, stations),
        ...knownContracts(contracts, parkings),
        ...parkingsOnParkingContracts(contracts, parkings),
      ]
    : [];
  return [
    ...contractNamesUnique(contracts),
    ...contractNamesPathSafe(contracts),
    ...gbfsFieldsPresent(contracts),
    ...timezonesKnown(contracts),
    ...openingHoursValid(contracts),
    ...licenseIdsKnown(contracts),
    ...licenceStated(contracts),
    ...languagesUnique(contracts),
    ...electricalBikesHaveRange(contracts),
    ...references,
    ...stationNumbersUniqueInContract(stations),
    ...parkingNumbersUniqueInContract(parkings),
    ...textPublishable(contracts, ["commercial_name", "cities"]),
    ...textPublishable(stations, ["name", "address"]),
    ...textPublishable(parkings, ["name", "address", "zipCode", "city"]),
    ...totalStandsFit(stations),
    ...coordinatesInRange(stations),
    ...coordinatesInRange(parkings),
    ...positionsNearTheirContract([...stations, ...parkings]),
  ];
}

/**
 * `statesComplete` false: the states file had errors, so stations without a state there are a
 * consequence of those errors, not news; reporting 400 of them would bury the one that matters.
 * `keys`: each state's stationKey, when already known. `fresh`: the positions of the states that
 * the rules of one record at a time must check; the others passed them last time against the same
 * static data (see KnownStates). Default: all. `across`: what the rules across records found for
 * the same keys at the same places, against the same static data; default: they run.
 */
export function checkStates(
  source: StaticSource,
  states: readonly Sourced<StationState>[],
  complete: Completeness = ALL,
  statesComplete = true,
  known?: { keys: readonly string[]; fresh: readonly number[]; across?: StatesAcross },
): Problem[] {
  return checkStatesWithAcross(source, states, complete, statesComplete, known).problems;
}

/** checkStates, and what its rules across records found, for the next file with the same keys. */
export function checkStatesWithAcross(
  source: StaticSource,
  states: readonly Sourced<StationState>[],
  complete: Completeness = ALL,
  statesComplete = true,
  known?: { keys: readonly string[]; fresh: readonly number[]; across?: StatesAcross },
): { problems: Problem[]; across: StatesAcross } {
  const keys = known?.keys ?? stateKeys(states);
  const checked = known
    ? known.fresh.map((index) => states[index] as Sourced<StationState>)
    : states;
  const checkedKeys = known ? known.fresh.map((index) => keys[index] as string) : keys;
  const across = known?.across ?? {
    duplicates: oneStatePerStation(states, keys),
    unreported:
      complete.stations && statesComplete ? stationsHaveStates(source.stations, states, keys) : [],
  };
  const references = complete.stations
    ? [
        ...statesForKnownStations(source.stations, checked, checkedKeys),
        ...availabilitiesConsistent(source.stations, checked, checkedKeys),
        ...across.unreported,
      ]
    : [];
  const bikeTypes = complete.contracts ? bikesOfDeclaredTypes(source.contracts, checked) : [];
  const problems = [
    ...across.duplicates,
    ...lastUpdateIsUtcInstant(checked),
    ...lastUpdateInRange(checked),
    ...references,
    ...bikeTypes,
  ];
  return { problems, across };
}
