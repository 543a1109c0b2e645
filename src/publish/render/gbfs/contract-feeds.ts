// Every GBFS file of one contract, both versions, split the way a refresh needs: static and live.
import type { Contract } from "../../../model/contract.js";
import type { Station } from "../../../model/station.js";
import type { LiveState } from "../../../source/dataset.js";
import { renderDiscovery, renderVersions } from "./discovery.js";
import {
  type Freshness,
  GBFS_VERSIONS,
  type GbfsFeedName,
  type GbfsFile,
  type GbfsUrls,
  type GbfsVersion,
} from "./feed.js";
import { renderStationInformation } from "./station-information.js";
import { renderStationStatus } from "./station-status.js";
import { gbfsSystem } from "./system.js";
import { renderSystemInformation } from "./system-information.js";
import { renderVehicleTypes, vehicleTypesOf } from "./vehicle-types.js";

export interface GbfsRendered {
  version: GbfsVersion;
  feed: GbfsFeedName;
  body: GbfsFile<unknown>;
}

/**
 * The files that change only with the source: gbfs, gbfs_versions, system_information,
 * vehicle_types, station_information. `stations` are the contract's own, in source order.
 */
export function renderGbfsStatic(
  contract: Contract,
  stations: readonly Station[],
  freshness: Freshness,
  urls: GbfsUrls,
): GbfsRendered[] {
  const system = gbfsSystem(contract);
  return GBFS_VERSIONS.flatMap((version): GbfsRendered[] => [
    { version, feed: "gbfs", body: renderDiscovery(system, version, freshness, urls) },
    { version, feed: "gbfs_versions", body: renderVersions(contract, version, freshness, urls) },
    {
      version,
      feed: "system_information",
      body: renderSystemInformation(system, version, freshness, urls),
    },
    { version, feed: "vehicle_types", body: renderVehicleTypes(contract, version, freshness) },
    {
      version,
      feed: "station_information",
      body: renderStationInformation(system, stations, version, freshness),
    },
  ]);
}

/** station_status in both versions: what each refresh renders again, with `generatedAt`. */
export function renderGbfsStatus(
  contract: Contract,
  stations: readonly Station[],
  states: ReadonlyMap<string, LiveState>,
  freshness: Freshness,
): GbfsRendered[] {
  const types = vehicleTypesOf(contract);
  return GBFS_VERSIONS.map((version) => ({
    version,
    feed: "station_status",
    body: renderStationStatus(stations, states, types, version, freshness),
  }));
}
