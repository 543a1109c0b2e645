// Rules on stations and parkings: references, identity within a contract, coordinates.
import { excerpt } from "../../errors.js";
import type { Contract } from "../../model/contract.js";
import { INT32_MAX } from "../../model/int32.js";
import { counted } from "../../plural.js";
import { plainNumber } from "../number-texts.js";
import { error, type Problem, type Sourced, warning } from "../problems.js";
import { writtenNumber } from "./written-numbers.js";

interface ContractRecord {
  contract: string;
  number: number;
}

export const contractKey = (name: string): string => name.toLowerCase();

/**
 * A contract name as the records naming it are matched, spaces around it aside: they are an error
 * of the contract's own (contractNamesPathSafe), not "unknown contract" on each of its records too.
 */
export const nameKey = (name: string): string => contractKey(name.trim());

/**
 * Every station or parking names a contract that exists (names compared without case). `renamed`:
 * the contracts no record names (contractsNamedByNone), which an unknown name is likely one of,
 * renamed in contracts.json alone.
 */
export function knownContracts(
  contracts: readonly Sourced<Contract>[],
  records: readonly Sourced<{ contract: string }>[],
  renamed: readonly Sourced<Contract>[] = [],
): Problem[] {
  const names = new Set(contracts.map((contract) => nameKey(contract.value.name)));
  const hint = renamedHint(renamed.map(({ value }) => value.name));
  return records
    .filter((record) => !names.has(contractKey(record.value.contract)))
    .map((record) => {
      const { contract } = record.value;
      // A database's fixed-width column pads it: "rennes   ".
      const padded = names.has(nameKey(contract));
      return error(
        record.at,
        "contract",
        padded
          ? `unknown contract "${excerpt(contract)}": spaces around the name (a fixed-width export's padding?); write "${contract.trim()}"`
          : `unknown contract "${excerpt(contract)}" (not in contracts.json${hint})`,
      );
    });
}

/** `, where "tlse" has no station: renamed?`, or nothing when every contract has some. */
function renamedHint(names: readonly string[]): string {
  if (names.length === 0) return "";
  const listed = names.slice(0, 3).map((name) => `"${excerpt(name)}"`);
  if (names.length > 3) listed.push("…");
  return names.length === 1
    ? `, where ${listed[0]} has no station: renamed?`
    : `, where ${listed.join(", ")} have no station: one of them renamed?`;
}

/**
 * The contracts no station or parking names, of those whose stations were all read (`unread`:
 * the contracts, by nameKey, of stations not read, or "all"): published with empty lists.
 */
export function contractsNamedByNone(
  contracts: readonly Sourced<Contract>[],
  stations: readonly Sourced<{ contract: string }>[],
  parkings: readonly Sourced<{ contract: string }>[],
  unread: ReadonlySet<string> | "all",
): Sourced<Contract>[] {
  if (unread === "all") return [];
  const named = new Set([...stations, ...parkings].map(({ value }) => nameKey(value.contract)));
  return contracts.filter(({ value }) => {
    const key = nameKey(value.name);
    return !named.has(key) && !unread.has(key);
  });
}

/**
 * A contract no station names (contractsNamedByNone) is published with empty lists, which a
 * consumer takes for a network without stations: said.
 */
export function contractsHaveStations(namedByNone: readonly Sourced<Contract>[]): Problem[] {
  return namedByNone.map((contract) =>
    warning(
      contract.at,
      "name",
      `no station names contract "${excerpt(contract.value.name)}": its lists are published empty (not yet exported, or named otherwise in the stations file?)`,
    ),
  );
}

/** Parkings are published only for contracts that offer the parking API; others would be lost silently. */
export function parkingsOnParkingContracts(
  contracts: readonly Sourced<Contract>[],
  parkings: readonly Sourced<{ contract: string }>[],
): Problem[] {
  const withoutApi = new Set(
    contracts
      .filter((contract) => !contract.value.parkingApi)
      .map((contract) => contractKey(contract.value.name)),
  );
  return parkings
    .filter((parking) => withoutApi.has(contractKey(parking.value.contract)))
    .map((parking) =>
      error(
        parking.at,
        "contract",
        `contract "${excerpt(parking.value.contract)}" does not offer the parking API: set "parkingApi": true in contracts.json or remove this parking`,
      ),
    );
}

/** A number identifies a record only within its contract, so it must be unique there. */
export function numbersUniqueInContract(
  kind: string,
  records: readonly Sourced<ContractRecord>[],
): Problem[] {
  const seen = new Map<string, Sourced<ContractRecord>>();
  const problems: Problem[] = [];
  for (const record of records) {
    const key = `${contractKey(record.value.contract)}/${record.value.number}`;
    const earlier = seen.get(key);
    if (earlier) {
      // "032" and "32", both 32: how each is written says why one number is there twice.
      const [there, here] = [writtenNumber(earlier), writtenNumber(record)];
      const spelt =
        there === here
          ? ""
          : `: written "${excerpt(there)}" there and "${excerpt(here)}" here, both published as ${record.value.number}`;
      problems.push(
        error(
          record.at,
          "number",
          `${kind} ${record.value.number} appears twice in contract "${excerpt(record.value.contract)}" (first ${placeOf(earlier)})${spelt}`,
        ),
      );
    } else seen.set(key, record);
  }
  return problems;
}

export const stationNumbersUniqueInContract = (stations: readonly Sourced<ContractRecord>[]) =>
  numbersUniqueInContract("station", stations);

export const parkingNumbersUniqueInContract = (parkings: readonly Sourced<ContractRecord>[]) =>
  numbersUniqueInContract("parking", parkings);

/**
 * A station's capacity and overflow capacity are published as one total too (v3's totalStands, v1's
 * bike_stands): the original service's clients read it as a 32-bit integer, as each part.
 */
export function totalStandsFit(
  stations: readonly Sourced<{ capacity: number; overflowCapacity: number | null }>[],
): Problem[] {
  return stations
    .filter(({ value }) => value.capacity + (value.overflowCapacity ?? 0) > INT32_MAX)
    .map(({ value, at }) =>
      error(
        at,
        "overflowCapacity",
        `with capacity makes ${counted(value.capacity + (value.overflowCapacity ?? 0), "stand")} in all (v3's totalStands, v1's bike_stands), more than ${INT32_MAX}: the original service's clients read that total as a 32-bit integer`,
      ),
    );
}

/** WGS84 ranges; (0, 0) is allowed but almost always a missing position, so it warns. */
export function coordinatesInRange(
  /** A coordinate absent (its record's schema refused it) is left alone, the other checked. */
  records: readonly Sourced<{ latitude?: number; longitude?: number }>[],
): Problem[] {
  const problems: Problem[] = [];
  for (const { value, at } of records) {
    if (value.latitude !== undefined && !latitudeInRange(value.latitude)) {
      problems.push(
        error(
          at,
          "latitude",
          `${plainNumber(value.latitude)} is outside -90..90 (degrees north; are latitude and longitude swapped?)`,
        ),
      );
    }
    if (value.longitude !== undefined && !longitudeInRange(value.longitude)) {
      problems.push(
        error(
          at,
          "longitude",
          `${plainNumber(value.longitude)} is outside -180..180 (degrees east)`,
        ),
      );
    }
    if (value.latitude === 0 && value.longitude === 0) {
      problems.push({
        severity: "warning",
        at,
        field: "latitude",
        message: "position is 0, 0: probably missing",
      });
    }
  }
  return problems;
}

/**
 * The stations and parkings whose contract is not in error (knownContracts,
 * parkingsOnParkingContracts): the rules comparing a contract's positions look at these only. A
 * parking under another contract than its own would be measured against that contract's stations,
 * a city away from it, and move their middle; a record whose contract is unknown is of no contract
 * yet: which others it lies among is known once its contract is named right.
 */
export function onTheirContracts(
  contracts: readonly Sourced<Contract>[],
  stations: readonly Positioned[],
  parkings: readonly Positioned[],
): Positioned[] {
  const names = new Set(contracts.map(({ value }) => nameKey(value.name)));
  const withoutApi = new Set(
    contracts.filter(({ value }) => !value.parkingApi).map(({ value }) => contractKey(value.name)),
  );
  const known = ({ value }: Positioned) => names.has(contractKey(value.contract));
  return [
    ...stations.filter(known),
    ...parkings.filter(
      (parking) => known(parking) && !withoutApi.has(contractKey(parking.value.contract)),
    ),
  ];
}

type Positioned = Sourced<{ contract: string; latitude: number; longitude: number }>;

/** Farther than this from the middle of its contract's others, a record is a city away. */
const FAR_KM = 50;

/**
 * A position in range but far from its contract's others: latitude and longitude swapped (both
 * under 90 in Europe, so the range check cannot see it), a sign lost, a digit slipped. The middle
 * is the median of each coordinate, which the few wrong ones do not move.
 */
export function positionsNearTheirContract(
  records: readonly Sourced<{ contract: string; latitude: number; longitude: number }>[],
  /** Contracts whose positions were said otherwise (positionsInTimeZoneRegion): left out. */
  skipped: ReadonlySet<string> = new Set(),
): Problem[] {
  const byContract = new Map<string, Sourced<{ latitude: number; longitude: number }>[]>();
  for (const record of records) {
    const { latitude, longitude } = record.value;
    if (!placed(latitude, longitude)) continue; // said above
    const key = contractKey(record.value.contract);
    if (skipped.has(key)) continue;
    const group = byContract.get(key);
    if (group) group.push(record);
    else byContract.set(key, [record]);
  }
  const problems: Problem[] = [];
  for (const group of byContract.values()) {
    if (group.length < 3) continue; // no middle to speak of
    const middle = {
      latitude: median(group.map(({ value }) => value.latitude)),
      longitude: median(group.map(({ value }) => value.longitude)),
    };
    for (const { value, at } of group) {
      const km = distanceKm(value, middle);
      if (km <= FAR_KM) continue;
      const swapped = { latitude: value.longitude, longitude: value.latitude };
      const hint =
        inRange(swapped.latitude, swapped.longitude) && distanceKm(swapped, middle) <= FAR_KM
          ? "latitude and longitude swapped?"
          : "a wrong position?";
      problems.push(
        warning(
          at,
          "latitude",
          `${value.latitude}, ${value.longitude} is ${Math.round(km).toLocaleString("en")} km from the middle of its contract's others (${round(middle.latitude)}, ${round(middle.longitude)}): ${hint}`,
        ),
      );
    }
  }
  return problems;
}

// NaN is in neither range.
const latitudeInRange = (latitude: number): boolean => latitude >= -90 && latitude <= 90;
const longitudeInRange = (longitude: number): boolean => longitude >= -180 && longitude <= 180;
const inRange = (latitude: number, longitude: number): boolean =>
  latitudeInRange(latitude) && longitudeInRange(longitude);

/**
 * A position the rules of one record let pass (in range, not 0, 0): the rules comparing a
 * contract's positions look at these only, the others being said already.
 */
export const placed = (latitude: number, longitude: number): boolean =>
  inRange(latitude, longitude) && !(latitude === 0 && longitude === 0);

function median(values: number[]): number {
  values.sort((a, b) => a - b);
  const half = values.length >> 1;
  return values.length % 2 === 1
    ? (values[half] as number)
    : ((values[half - 1] as number) + (values[half] as number)) / 2;
}

/** Great-circle distance (haversine), in km. */
function distanceKm(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
): number {
  const radians = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * radians;
  const dLng = (b.longitude - a.longitude) * radians;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.latitude * radians) * Math.cos(b.latitude * radians) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

const round = (degrees: number): number => Math.round(degrees * 1000) / 1000;

/** Where an earlier record of the same file is, for "… (first at [3])". */
export function placeOf(record: Sourced<unknown>): string {
  if (record.at.line !== undefined) return `on line ${record.at.line}`;
  return record.at.index === undefined ? "above" : `at [${record.at.index}]`;
}
