// The previous release as far as a cron refresh needs it (pure): its station renderings, sliced
// from the lists of all stations on disk, and its static answers, known by their manifest entries.

import { pathOf } from "../../routes/routes.js";
import { type Dataset, stationKey } from "../../source/dataset.js";
import type { Manifest, ManifestEntry } from "../../tree/manifest.js";
import { groupByContract } from "../group.js";
import type { ReleaseFile } from "../release.js";
import { jsonList } from "../render/json-body.js";
import type { RenderedStation, StationCache, StationSurface } from "../station-files.js";
import { type RefreshState, unpackState } from "./refresh-state.js";

export interface PreviousRelease {
  stations: StationCache;
  /** Answers that a states-only refresh keeps as they are: their bytes stay on disk. */
  staticFiles: Map<string, ReleaseFile>;
}

/**
 * `allLists` holds, per surface, the bytes of its list of all stations, already checked against
 * the manifest's ETag. Null when anything disagrees with the manifest: then render everything.
 */
export function previousRelease(
  state: RefreshState,
  dataset: Dataset,
  surfaces: readonly StationSurface[],
  manifest: Pick<Manifest, "entry">,
  allLists: readonly Buffer[],
): PreviousRelease | null {
  const entry = (path: string, size: number): ManifestEntry | null => {
    const known = manifest.entry(path);
    return known && known.size === size ? known : null;
  };
  const file = (path: string, body: Uint8Array[], size: number): ReleaseFile | null => {
    const known = entry(path, size);
    if (!known) return null;
    return { body, size, contentType: known.type, etag: known.etag, freshness: "dynamic" };
  };

  const stations = new Map<string, RenderedStation>();
  const { stations: list } = dataset;
  for (let index = 0; index < list.length; index++) {
    const station = list[index] as (typeof list)[number];
    const files: ReleaseFile[] = [];
    const paths: string[] = [];
    for (let surface = 0; surface < surfaces.length; surface++) {
      const bytes = allLists[surface] as Buffer;
      const starts = state.offsets[surface] ?? [];
      const start = starts[index] ?? Number.NaN;
      const end =
        index + 1 < list.length ? (starts[index + 1] ?? Number.NaN) - 1 : bytes.length - 1;
      if (!(start >= 1 && end >= start && end < bytes.length)) return null;
      const slice = bytes.subarray(start, end);
      const path = pathOf(
        (surfaces[surface] as StationSurface).station(station.contract, station.number),
      );
      const rendered = file(path, [slice], slice.length);
      if (!rendered) return null;
      files.push(rendered);
      paths.push(path);
    }
    stations.set(stationKey(station.contract, station.number), {
      station,
      state: unpackState(state.states[index]),
      files,
      paths,
    });
  }

  const lists = new Map<string, ReleaseFile>();
  const byContract = groupByContract(list);
  for (const contract of dataset.contracts) {
    const members = byContract.get(contract.name) ?? [];
    for (let surface = 0; surface < surfaces.length; surface++) {
      const path = pathOf((surfaces[surface] as StationSurface).contractList(contract.name));
      const body = jsonList(
        members.map(
          (station) =>
            stations.get(stationKey(station.contract, station.number))?.files[surface]
              ?.body[0] as Uint8Array,
        ),
      );
      const size = body.reduce((total, chunk) => total + chunk.byteLength, 0);
      const rendered = file(path, body, size);
      if (!rendered) return null;
      lists.set(path, rendered);
    }
  }
  for (let surface = 0; surface < surfaces.length; surface++) {
    const bytes = allLists[surface] as Buffer;
    const rendered = file(pathOf((surfaces[surface] as StationSurface).all), [bytes], bytes.length);
    if (!rendered) return null;
    lists.set(pathOf((surfaces[surface] as StationSurface).all), rendered);
  }

  const staticFiles = new Map<string, ReleaseFile>();
  for (const path of state.staticPaths) {
    const known = manifest.entry(path);
    if (!known) return null;
    staticFiles.set(path, keptFile(path, known));
  }
  // GBFS station_status is not kept in the state file: each contract's is rendered again (cheap).
  return { stations: { stations, lists, gbfsStatus: new Map() }, staticFiles };
}

/**
 * A static answer left as it is on disk. Its bytes are not at hand: the caller has checked that the
 * file on disk is the manifest's, so the tree updater never asks for them.
 */
function keptFile(path: string, known: ManifestEntry): ReleaseFile {
  return {
    get body(): readonly Uint8Array[] {
      throw new Error(`bug: the bytes of ${path}, kept on disk by a cron refresh, were asked for`);
    },
    size: known.size,
    contentType: known.type,
    etag: known.etag,
    freshness: "static",
  };
}
