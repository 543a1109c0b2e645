// The JSON text of the answers a refresh renders again (a station in v3 and v1, its GBFS
// station_status entry), written directly: byte for byte what JSON.stringify makes of the
// renderers' objects (renderStationV3, renderStationV1, stationStatusEntry), without building them.
// A minute's refresh encodes ~40,000 of these; building and stringifying the objects was most of it.
import type { Availabilities } from "../../model/api.js";
import type { Station } from "../../model/station.js";
import { oncePerObject } from "../../once-per-object.js";
import type { LiveState } from "../../source/dataset.js";
import { type GbfsVersion, timestamp } from "./gbfs/feed.js";
import { isWorking, NEVER_REPORTED_AT, overflowGroup } from "./gbfs/station-status.js";
import type { VehicleType } from "./gbfs/vehicle-types.js";
import { NEVER_REPORTED } from "./v3.js";

const NONE = NEVER_REPORTED.main;

/** `JSON.stringify(renderStationV3(station, state))`. */
export function stationV3Json(station: Station, state: LiveState = NEVER_REPORTED): string {
  const main = state.main;
  const capacity = station.capacity;
  const mainStands = standsJson(main, capacity);
  let total = mainStands;
  let overflowStands = "null";
  if (station.overflowCapacity !== null) {
    const overflow = state.overflow ?? NONE;
    overflowStands = standsJson(overflow, station.overflowCapacity);
    total = standsJson(sum(main, overflow), capacity + station.overflowCapacity);
  }
  return (
    `{"number":${number(station.number)},"contractName":${JSON.stringify(station.contract)}` +
    `,"name":${JSON.stringify(station.name)},"address":${JSON.stringify(station.address)}` +
    `,"position":{"latitude":${number(station.latitude)},"longitude":${number(station.longitude)}}` +
    `,"banking":${station.banking},"bonus":${station.bonus}` +
    `,"status":${JSON.stringify(state.status)},"lastUpdate":${nullableString(state.lastUpdate)}` +
    `,"connected":${state.connected},"overflow":${station.overflow},"shape":null` +
    `,"totalStands":${total},"mainStands":${mainStands},"overflowStands":${overflowStands}}`
  );
}

/** `JSON.stringify(renderStationV1(station, state))`. */
export function stationV1Json(station: Station, state: LiveState = NEVER_REPORTED): string {
  const overflow = station.overflowCapacity === null ? null : state.overflow;
  const lastUpdate = state.lastUpdate === null ? "null" : number(Date.parse(state.lastUpdate));
  return (
    `{"number":${number(station.number)},"contract_name":${JSON.stringify(station.contract)}` +
    `,"name":${JSON.stringify(station.name)},"address":${JSON.stringify(station.address)}` +
    `,"position":{"lat":${number(station.latitude)},"lng":${number(station.longitude)}}` +
    `,"banking":${station.banking},"bonus":${station.bonus}` +
    `,"bike_stands":${number(station.capacity + (station.overflowCapacity ?? 0))}` +
    `,"available_bike_stands":${number(state.main.stands + (overflow?.stands ?? 0))}` +
    `,"available_bikes":${number(state.main.bikes + (overflow?.bikes ?? 0))}` +
    `,"status":${JSON.stringify(state.status)},"last_update":${lastUpdate}}`
  );
}

/** `JSON.stringify(stationStatusEntry(station, state, types, version))`. */
export function stationStatusEntryJson(
  station: Station,
  state: LiveState | undefined,
  types: readonly VehicleType[],
  version: GbfsVersion,
): string {
  const live = state ?? NEVER_REPORTED;
  const main = live.main;
  const overflow = overflowGroup(station, live);
  const total = (count: (a: Availabilities) => number) =>
    overflow ? count(main) + count(overflow) : count(main);
  const keys = typeKeysOf(types);
  let counts = "";
  for (let at = 0; at < types.length; at++) {
    if (at > 0) counts += ",";
    counts += `${keys[at]}${number(total((types[at] as VehicleType).count))}}`;
  }
  const working = isWorking(live);
  const bikes = version === "2.3" ? "num_bikes_available" : "num_vehicles_available";
  return (
    `{"station_id":${JSON.stringify(String(station.number))},"${bikes}":${number(total(bikesOf))}` +
    `,"vehicle_types_available":[${counts}],"num_docks_available":${number(total(standsOf))}` +
    `,"is_installed":${state !== undefined},"is_renting":${working},"is_returning":${working}` +
    `,"last_reported":${lastReportedJson(version, live.lastUpdate)}}`
  );
}

/** Each type's `{"vehicle_type_id":…,"count":`, once per list of types (a contract's, per refresh). */
const typeKeysOf = oncePerObject((types: readonly VehicleType[]): readonly string[] =>
  types.map((type) => `{"vehicle_type_id":${JSON.stringify(type.id)},"count":`),
);

// The stations of a minute report a few hundred distinct instants: each converted once.
const reportedJson = { "2.3": new Map<string, string>(), "3.0": new Map<string, string>() };
const REPORTED_KEPT = 4096;

function lastReportedJson(version: GbfsVersion, lastUpdate: string | null): string {
  if (lastUpdate === null) return JSON.stringify(timestamp(version, NEVER_REPORTED_AT));
  const known = reportedJson[version];
  let text = known.get(lastUpdate);
  if (text === undefined) {
    text = JSON.stringify(timestamp(version, new Date(lastUpdate)));
    if (known.size >= REPORTED_KEPT) known.clear();
    known.set(lastUpdate, text);
  }
  return text;
}

const bikesOf = (a: Availabilities) => a.bikes;
const standsOf = (a: Availabilities) => a.stands;

function standsJson(a: Availabilities, capacity: number): string {
  return (
    `{"availabilities":{"bikes":${number(a.bikes)},"stands":${number(a.stands)}` +
    `,"mechanicalBikes":${number(a.mechanicalBikes)},"electricalBikes":${number(a.electricalBikes)}` +
    `,"electricalInternalBatteryBikes":${number(a.electricalInternalBatteryBikes)}` +
    `,"electricalRemovableBatteryBikes":${number(a.electricalRemovableBatteryBikes)}}` +
    `,"capacity":${number(capacity)}}`
  );
}

function sum(a: Availabilities, b: Availabilities): Availabilities {
  return {
    bikes: a.bikes + b.bikes,
    stands: a.stands + b.stands,
    mechanicalBikes: a.mechanicalBikes + b.mechanicalBikes,
    electricalBikes: a.electricalBikes + b.electricalBikes,
    electricalInternalBatteryBikes:
      a.electricalInternalBatteryBikes + b.electricalInternalBatteryBikes,
    electricalRemovableBatteryBikes:
      a.electricalRemovableBatteryBikes + b.electricalRemovableBatteryBikes,
  };
}

/** As JSON.stringify writes a number: the shortest round-trip form, `null` when not finite. */
const number = (value: number): string => (Number.isFinite(value) ? `${value}` : "null");

const nullableString = (value: string | null): string =>
  value === null ? "null" : JSON.stringify(value);
