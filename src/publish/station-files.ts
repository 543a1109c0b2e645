// The dynamic answers (each station, each contract's list, the list of all), re-rendered only where a state changed.
import type { Availabilities } from "../model/api.js";
import type { Station } from "../model/station.js";
import { type Endpoint, pathOf } from "../routes/routes.js";
import { type Dataset, type LiveState, stationKey } from "../source/dataset.js";
import { groupByContract } from "./group.js";
import { endpointFile, type ReleaseFile } from "./release.js";
import { encodeJson, jsonList } from "./render/json-body.js";
import { renderStationV3 } from "./render/v3.js";

interface RenderedStation {
  station: Station;
  state: LiveState | undefined;
  file: ReleaseFile;
}

/** What one publish leaves for the next: rendered stations and lists, by key. */
export interface StationCache {
  stations: ReadonlyMap<string, RenderedStation>;
  lists: ReadonlyMap<string, ReleaseFile>;
}

export function renderStationFiles(
  dataset: Dataset,
  previous: StationCache | undefined,
): { files: Map<string, ReleaseFile>; cache: StationCache } {
  const files = new Map<string, ReleaseFile>();
  const stations = new Map<string, RenderedStation>();
  const lists = new Map<string, ReleaseFile>();
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
        const endpoint: Endpoint = {
          name: "station",
          contract: station.contract,
          number: station.number,
        };
        rendered = {
          station,
          state,
          file: endpointFile(endpoint, [encodeJson(renderStationV3(station, state))]),
        };
        changed = true;
      }
      stations.set(key, rendered as RenderedStation);
      files.set(
        pathOf({ name: "station", contract: station.contract, number: station.number }),
        (rendered as RenderedStation).file,
      );
    }
    const endpoint: Endpoint = { name: "contractStations", contract: contract.name };
    const path = pathOf(endpoint);
    const priorList = previous?.lists.get(path);
    const list =
      !changed && priorList
        ? priorList
        : endpointFile(endpoint, jsonList(members.map((s) => bodyOf(stations, s))));
    anyChanged ||= list !== priorList;
    lists.set(path, list);
    files.set(path, list);
  }

  const allPath = pathOf({ name: "stations" });
  const priorAll = previous?.lists.get(allPath);
  const all =
    !anyChanged && priorAll && previous?.stations.size === stations.size
      ? priorAll
      : endpointFile(
          { name: "stations" },
          jsonList(dataset.stations.map((s) => bodyOf(stations, s))),
        );
  lists.set(allPath, all);
  files.set(allPath, all);
  return { files, cache: { stations, lists } };
}

function bodyOf(stations: ReadonlyMap<string, RenderedStation>, station: Station): Uint8Array {
  const rendered = stations.get(stationKey(station.contract, station.number));
  // Single-station files are one chunk: the station's own bytes, shared by every list.
  return rendered?.file.body[0] as Uint8Array;
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
