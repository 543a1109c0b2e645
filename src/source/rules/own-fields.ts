// The rules that read one record's own fields, none of its other records', for each resource. They
// run over the records that passed their schema and, so that one run of validate says every mistake
// of a record, over the fields that passed theirs in the records that did not: `"banking": "yes"`
// does not hide a latitude out of range beside it until it is fixed. Of the rules across records,
// only those of positions see a refused record, where its contract and coordinates passed
// (check.ts); duplicates and references never do. A state's are read against its station and
// contract, so they are made for a static source (check-states.ts's stateRules).
import type { Contract } from "../../model/contract.js";
import type { Parking } from "../../model/parking.js";
import type { Station } from "../../model/station.js";
import type { Problem, Sourced } from "../problems.js";
import type { SalvagedRecord } from "../salvaged-records.js";
import { contractNamesPathSafe } from "./contracts.js";
import {
  attributionNamed,
  electricalBikesHaveRange,
  gbfsFieldsPresent,
  languagesUnique,
  licenceStated,
  licenseIdsKnown,
  openingHoursValid,
  timezonesKnown,
} from "./gbfs.js";
import { overflowStandsOnOverflowStations, overflowStationsHaveStands } from "./overflow.js";
import { coordinatesInRange, totalStandsFit } from "./records.js";
import { textPublishable } from "./text.js";
import { numbersPublishedAsWritten } from "./written-numbers.js";

export interface OwnFieldRule<T> {
  /**
   * The fields it cannot do without: a refused record is checked only when these passed. The
   * others it reads it finds absent where refused, as an optional field left out.
   */
  needs: readonly (keyof T & string)[];
  check: (records: readonly Sourced<T>[]) => Problem[];
}

export const CONTRACT_RULES: readonly OwnFieldRule<Contract>[] = [
  { needs: ["name"], check: contractNamesPathSafe },
  { needs: [], check: gbfsFieldsPresent },
  { needs: [], check: timezonesKnown },
  { needs: [], check: openingHoursValid },
  { needs: [], check: licenseIdsKnown },
  { needs: [], check: licenceStated },
  { needs: [], check: attributionNamed },
  { needs: [], check: languagesUnique },
  { needs: [], check: electricalBikesHaveRange },
  { needs: [], check: (contracts) => textPublishable(contracts, ["commercial_name", "cities"]) },
];

export const STATION_RULES: readonly OwnFieldRule<Station>[] = [
  { needs: ["number"], check: (stations) => numbersPublishedAsWritten("station", stations) },
  { needs: [], check: (stations) => textPublishable(stations, ["name", "address"]) },
  { needs: ["capacity", "overflowCapacity"], check: totalStandsFit },
  { needs: ["overflow", "overflowCapacity"], check: overflowStandsOnOverflowStations },
  { needs: ["overflow", "overflowCapacity"], check: overflowStationsHaveStands },
  // Each coordinate on its own: a latitude refused does not hide a longitude out of range.
  { needs: [], check: coordinatesInRange },
];

export const PARKING_RULES: readonly OwnFieldRule<Parking>[] = [
  { needs: ["number"], check: (parkings) => numbersPublishedAsWritten("parking", parkings) },
  {
    needs: [],
    check: (parkings) => textPublishable(parkings, ["name", "address", "zipCode", "city"]),
  },
  { needs: [], check: coordinatesInRange },
];

/** Every rule over the records that passed their schema. */
export function ownFieldsChecked<T>(
  rules: readonly OwnFieldRule<T>[],
  records: readonly Sourced<T>[],
): Problem[] {
  return rules.flatMap((rule) => rule.check(records));
}

/**
 * Over each refused record, the rules whose fields it has, on the fields that passed; nothing is
 * said of a field its schema refused (said already, and absent here: "missing" would be wrong).
 */
export function refusedRecordsChecked<T>(
  rules: readonly OwnFieldRule<T>[],
  records: readonly SalvagedRecord<T>[],
): Problem[] {
  return records.flatMap((record) => {
    const { failedFields } = record;
    return rules
      .filter(({ needs }) => needs.every((field) => !failedFields.has(field)))
      .flatMap((rule) => rule.check([record]))
      .filter(({ field }) => !failedFields.has(field?.split(".")[0] ?? ""))
      .map(leftOutAsSaid);
  });
}

// What a warning says becomes of the record (and how it shows), true of one that passed its schema.
const PUBLISHED_AS_GIVEN = /published as given(?: \([^)]*\))?/;

/** A refused record's warning: the record is left out, not "published as given". */
function leftOutAsSaid(problem: Problem): Problem {
  const message = problem.message.replace(
    PUBLISHED_AS_GIVEN,
    "not published, the record being left out for its errors",
  );
  return message === problem.message ? problem : { ...problem, message };
}
