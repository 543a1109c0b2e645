// station_status: the live counts and state of each station, re-rendered at every refresh.
import type { Availabilities } from "../../../model/api.js";
import type { Station } from "../../../model/station.js";
import { type LiveState, stationKey } from "../../../source/dataset.js";
import { GBFS_EARLIEST_MS } from "../../../source/source-time.js";
import { jsonList } from "../json-body.js";
import { NEVER_REPORTED } from "../v3.js";
import { type Freshness, type GbfsFile, type GbfsVersion, gbfsFile, timestamp } from "./feed.js";
import { stationIdOf } from "./station-information.js";
import type { VehicleType } from "./vehicle-types.js";

/**
 * A station that never reported has no time to give, yet `last_reported` is required: it gets the
 * earliest instant the v2.3 schema accepts (2015-12-15T05:00:00Z), plainly stale, so consumers
 * that drop stations silent for long drop it, and it shows as not installed, renting nor returning.
 */
export const NEVER_REPORTED_AT = new Date(GBFS_EARLIEST_MS);

export interface StationStatusEntry {
  station_id: string;
  num_bikes_available?: number;
  num_vehicles_available?: number;
  vehicle_types_available: { vehicle_type_id: string; count: number }[];
  num_docks_available: number;
  is_installed: boolean;
  is_renting: boolean;
  is_returning: boolean;
  last_reported: number | string;
}

export function stationStatusEntry(
  station: Station,
  state: LiveState | undefined,
  types: readonly VehicleType[],
  version: GbfsVersion,
): StationStatusEntry {
  const live = state ?? NEVER_REPORTED;
  const overflow = overflowGroup(station, live);
  const groups: Availabilities[] = overflow ? [live.main, overflow] : [live.main];
  const total = (count: (a: Availabilities) => number) =>
    groups.reduce((sum, group) => sum + count(group), 0);
  const bikes = total((a) => a.bikes);
  const working = isWorking(live);
  return {
    station_id: stationIdOf(station),
    ...(version === "2.3" ? { num_bikes_available: bikes } : { num_vehicles_available: bikes }),
    vehicle_types_available: types.map((type) => ({
      vehicle_type_id: type.id,
      count: total(type.count),
    })),
    num_docks_available: total((a) => a.stands),
    is_installed: state !== undefined,
    is_renting: working,
    is_returning: working,
    last_reported: timestamp(
      version,
      live.lastUpdate === null ? NEVER_REPORTED_AT : new Date(live.lastUpdate),
    ),
  };
}

export function renderStationStatus(
  stations: readonly Station[],
  states: ReadonlyMap<string, LiveState>,
  types: readonly VehicleType[],
  version: GbfsVersion,
  freshness: Freshness,
): GbfsFile<{ stations: StationStatusEntry[] }> {
  return gbfsFile(version, freshness, {
    stations: stations.map((station) =>
      stationStatusEntry(
        station,
        states.get(stationKey(station.contract, station.number)),
        types,
        version,
      ),
    ),
  });
}

/**
 * The same bytes as `encodeJson(renderStationStatus(...))`, assembled around entries encoded once
 * per change of their station (`encodeJson(stationStatusEntry(...))`, in order): a refresh
 * re-renders only the stations whose state changed, not each contract's whole feed.
 */
export function stationStatusBody(
  version: GbfsVersion,
  freshness: Freshness,
  entries: readonly Uint8Array[],
): Uint8Array[] {
  // The header as JSON.stringify writes it: the list is the last value, so it ends the text.
  const empty = JSON.stringify(gbfsFile(version, freshness, { stations: [] }));
  const at = empty.lastIndexOf("[]");
  return [Buffer.from(empty.slice(0, at)), ...jsonList(entries), Buffer.from(empty.slice(at + 2))];
}

/**
 * The state's overflow group where the station has overflow stands, as v3 and v1 count it; none
 * where it has none. A state kept from before the static source removed them (a refresh's state
 * kept for a station its file leaves out, the simulator's) would otherwise count bikes and docks
 * beyond the capacity station_information gives, and more bikes than v3 and v1 show.
 */
export const overflowGroup = (
  station: Pick<Station, "overflowCapacity">,
  live: LiveState,
): Availabilities | null => (station.overflowCapacity === null ? null : live.overflow);

/**
 * Whether riders may rent and return there. A CLOSED station takes no rental nor return; a
 * disconnected one cannot check a bike in or out; and one whose report has no time (`lastUpdate`
 * null, as the real service was seen sending for an OPEN station) says nothing of now: no
 * consumer should send a rider there on its word.
 */
export const isWorking = (live: LiveState): boolean =>
  live.status === "OPEN" && live.connected && live.lastUpdate !== null;
