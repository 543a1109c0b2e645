// A contract's positions against the part of the world its time zone names: a whole contract
// exported longitude first (GeoJSON's and WKT's order) has no wrong station among its others, so
// the distance from their middle cannot see it (and blames the right ones, its parkings).
import type { Contract } from "../../model/contract.js";
import { counted } from "../../plural.js";
import { type Problem, type Sourced, warning } from "../problems.js";
import { contractKey, placed } from "./records.js";

interface Region {
  latitude: readonly [number, number];
  longitude: readonly [number, number];
}

// Generous boxes around the zones of each IANA area (the Azores to the Urals, the Aleutians to
// Greenland's east coast…); areas of islands and oceans (Atlantic/, Pacific/, Indian/) have none.
const REGIONS: Readonly<Record<string, Region>> = {
  Europe: { latitude: [27, 82], longitude: [-32, 70] },
  America: { latitude: [-56, 84], longitude: [-180, -10] },
  Africa: { latitude: [-36, 38], longitude: [-26, 64] },
  Asia: { latitude: [-12, 82], longitude: [25, 180] },
  Australia: { latitude: [-45, -9], longitude: [112, 160] },
};

type Positioned = Sourced<{ contract: string; latitude: number; longitude: number }>;

/**
 * One warning per contract whose stations or parkings lie outside its time zone's part of the
 * world, at the first of them; `flagged` gets those contracts' keys (their distances from their
 * middle say nothing more).
 */
export function positionsInTimeZoneRegion(
  contracts: readonly Sourced<Contract>[],
  records: readonly Positioned[],
  flagged: Set<string>,
): Problem[] {
  const regions = new Map<string, { zone: string; region: Region }>();
  for (const { value } of contracts) {
    const zone = value.timezone;
    const region = zone === undefined ? undefined : REGIONS[zone.split("/")[0] as string];
    if (zone !== undefined && region) regions.set(contractKey(value.name), { zone, region });
  }
  const outside = new Map<string, { first: Positioned; count: number }>();
  const totals = new Map<string, number>();
  for (const record of records) {
    const key = contractKey(record.value.contract);
    const known = regions.get(key);
    if (!known) continue;
    totals.set(key, (totals.get(key) ?? 0) + 1);
    const { latitude, longitude } = record.value;
    if (within(known.region, latitude, longitude) || !placed(latitude, longitude)) continue;
    const seen = outside.get(key);
    if (seen) seen.count++;
    else outside.set(key, { first: record, count: 1 });
  }
  const problems: Problem[] = [];
  for (const [key, { first, count }] of outside) {
    const { zone, region } = regions.get(key) as { zone: string; region: Region };
    const { latitude, longitude } = first.value;
    const hint = within(region, longitude, latitude)
      ? "latitude and longitude swapped (an export that writes longitude first)?"
      : "a wrong position, or a wrong time zone?";
    const of = totals.get(key) ?? count;
    const all = counted(of, "station and parking", "stations and parkings");
    // "as is 1 of the contract's 6" read as if another were out too: the one out is this one.
    const share =
      count > 1
        ? `, as are ${count} of the contract's ${all}`
        : of > 1
          ? `, the only one of the contract's ${all}`
          : "";
    problems.push(
      warning(
        first.at,
        "latitude",
        `${latitude}, ${longitude} is outside the part of the world ${zone} is in (latitude ${region.latitude.join(" to ")}, longitude ${region.longitude.join(" to ")})${share}: ${hint}`,
      ),
    );
    flagged.add(key);
  }
  return problems;
}

const within = (region: Region, latitude: number, longitude: number): boolean =>
  latitude >= region.latitude[0] &&
  latitude <= region.latitude[1] &&
  longitude >= region.longitude[0] &&
  longitude <= region.longitude[1];
