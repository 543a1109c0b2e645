// station_information: where each station is and how many docks it has (static data only).
import type { Station } from "../../../model/station.js";
import {
  type Freshness,
  type GbfsFile,
  type GbfsVersion,
  gbfsFile,
  type LocalizedString,
  localized,
} from "./feed.js";
import type { GbfsSystem } from "./system.js";

export interface StationInformationEntry {
  station_id: string;
  name: string | LocalizedString[];
  lat: number;
  lon: number;
  address?: string;
  capacity: number;
  is_virtual_station: false;
}

/** The station number is unique within its contract, which is one system: it is the id. */
export const stationIdOf = (station: Pick<Station, "number">): string => String(station.number);

export function stationInformationEntry(
  system: GbfsSystem,
  station: Station,
  version: GbfsVersion,
): StationInformationEntry {
  return {
    station_id: stationIdOf(station),
    name: version === "2.3" ? station.name : localized(station.name, system.languages),
    lat: station.latitude,
    lon: station.longitude,
    // The source allows an empty address; GBFS would read "" as an address.
    ...(station.address === "" ? {} : { address: station.address }),
    capacity: station.capacity + (station.overflowCapacity ?? 0),
    is_virtual_station: false,
  };
}

export function renderStationInformation(
  system: GbfsSystem,
  stations: readonly Station[],
  version: GbfsVersion,
  freshness: Freshness,
): GbfsFile<{ stations: StationInformationEntry[] }> {
  return gbfsFile(version, freshness, {
    stations: stations.map((station) => stationInformationEntry(system, station, version)),
  });
}
