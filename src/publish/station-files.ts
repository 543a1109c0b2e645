// The dynamic answers of every station API (v3, v1, GBFS): each station, each contract's list and
// GBFS station_status, the list of all, re-rendered only where a state changed.
import type { Availabilities } from "../model/api.js";
import type { Station } from "../model/station.js";
import { type Endpoint, pathOf } from "../routes/routes.js";
import { type Dataset, type LiveState, stationKey } from "../source/dataset.js";
import { gbfsStatusFiles } from "./gbfs-files.js";
import { groupByContract } from "./group.js";
import { endpointFile, type ReleaseFile } from "./release.js";
import { encodeJson, jsonList } from "./render/json-body.js";
import { renderStationV1 } from "./render/v1.js";
import { renderStationV3 } from "./render/v3.js";

/** One station API: how a station renders, and the endpoints of a station, a contract's list, all. */
export interface StationSurface {
  render(station: Station, state: LiveState | undefined): unknown;
  station(contract: string, number: number): Endpoint;
  contractList(contract: string): Endpoint;
  all: Endpoint;
}

export const SURFACES: readonly StationSurface[] = [
  {
    render: renderStationV3,
    station: (contract, number) => ({ name: "station", contract, number }),
    contractList: (contract) => ({ name: "contractStations", contract }),
    all: { name: "stations" },
  },
  {
    render: renderStationV1,
    station: (contract, number) => ({ name: "stationV1", contract, number }),
    contractList: (contract) => ({ name: "contractStationsV1", contract }),
    all: { name: "stationsV1" },
  },
];

export interface RenderedStation {
  station: Station;
  state: LiveState | undefined;
  /** One file per surface, in the order of SURFACES. */
  files: readonly ReleaseFile[];
  /** Their URL paths, kept: formatting 200,000 paths at every refresh is a tenth of its time. */
  paths: readonly string[];
}

/** What one publish leaves for the next: rendered stations and lists, by key. */
export interface StationCache {
  stations: ReadonlyMap<string, RenderedStation>;
  lists: ReadonlyMap<string, ReleaseFile>;
  /** Each contract's GBFS station_status files (both versions, every path), by contract name. */
  gbfsStatus: ReadonlyMap<string, ReadonlyMap<string, ReleaseFile>>;
}

/** `refreshSeconds`: how long GBFS consumers may keep station_status (its `ttl`). */
export function renderStationFiles(
  dataset: Dataset,
  previous: StationCache | undefined,
  refreshSeconds: number,
): { files: Map<string, ReleaseFile>; cache: StationCache } {
  const files = new Map<string, ReleaseFile>();
  const stations = new Map<string, RenderedStation>();
  const lists = new Map<string, ReleaseFile>();
  const gbfsStatus = new Map<string, ReadonlyMap<string, ReleaseFile>>();
  // The lists look their members up by the station itself: no key formatted 400,000 times.
  const byStation = new Map<Station, RenderedStation>();
  let anyChanged = false;

  const byContract = groupByContract(dataset.stations);
  for (const contract of dataset.contracts) {
    const members = byContract.get(contract.name) ?? [];
    let changed = false;
    for (const station of members) {
      const key = stationKey(station.contract, station.number);
      const state = dataset.states.get(key);
      const prior = previous?.stations.get(key);
      let rendered = prior;
      if (!prior || prior.station !== station || !sameState(prior.state, state)) {
        const endpoints = SURFACES.map((surface) =>
          surface.station(station.contract, station.number),
        );
        rendered = {
          station,
          state,
          files: SURFACES.map((surface, index) =>
            endpointFile(endpoints[index] as Endpoint, [
              encodeJson(surface.render(station, state)),
            ]),
          ),
          paths: prior?.station === station ? prior.paths : endpoints.map(pathOf),
        };
        changed = true;
      }
      const done = rendered as RenderedStation;
      stations.set(key, done);
      byStation.set(station, done);
      for (let index = 0; index < done.paths.length; index++) {
        files.set(done.paths[index] as string, done.files[index] as ReleaseFile);
      }
    }
    SURFACES.forEach((surface, index) => {
      const endpoint = surface.contractList(contract.name);
      const path = pathOf(endpoint);
      const prior = previous?.lists.get(path);
      const list =
        !changed && prior
          ? prior
          : endpointFile(endpoint, jsonList(members.map((s) => bodyOf(byStation, s, index))));
      anyChanged ||= list !== prior;
      lists.set(path, list);
      files.set(path, list);
    });
    // Like the lists: a contract whose stations did not change keeps its file.
    const priorStatus = previous?.gbfsStatus.get(contract.name);
    const status =
      !changed && priorStatus
        ? priorStatus
        : gbfsStatusFiles(contract, members, dataset.states, refreshSeconds);
    gbfsStatus.set(contract.name, status);
    for (const [path, file] of status) files.set(path, file);
  }

  SURFACES.forEach((surface, index) => {
    const path = pathOf(surface.all);
    const prior = previous?.lists.get(path);
    const all =
      !anyChanged && prior && previous?.stations.size === stations.size
        ? prior
        : endpointFile(
            surface.all,
            jsonList(dataset.stations.map((s) => bodyOf(byStation, s, index))),
          );
    lists.set(path, all);
    files.set(path, all);
  });
  return { files, cache: { stations, lists, gbfsStatus } };
}

function bodyOf(
  byStation: ReadonlyMap<Station, RenderedStation>,
  station: Station,
  surface: number,
): Uint8Array {
  const rendered = byStation.get(station);
  // Single-station files are one chunk: the station's own bytes, shared by every list.
  return rendered?.files[surface]?.body[0] as Uint8Array;
}

function sameState(a: LiveState | undefined, b: LiveState | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return (
    a.status === b.status &&
    a.connected === b.connected &&
    a.lastUpdate === b.lastUpdate &&
    sameAvailabilities(a.main, b.main) &&
    sameAvailabilities(a.overflow, b.overflow)
  );
}

function sameAvailabilities(a: Availabilities | null, b: Availabilities | null): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return (Object.keys(a) as (keyof Availabilities)[]).every((key) => a[key] === b[key]);
}
