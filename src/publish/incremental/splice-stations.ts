// A cron refresh's dynamic answers (pure): only the stations whose state changed are rendered; the
// lists and station_status feeds holding them are spliced from the previous run's published bytes.
import type { Station } from "../../model/station.js";
import { type Endpoint, pathOf } from "../../routes/routes.js";
import { type Dataset, stationKey } from "../../source/dataset.js";
import { gbfsStatusFiles, stationStatusEntries } from "../gbfs-files.js";
import { endpointFile, listFile, type ReleaseFile } from "../release.js";
import { GBFS_VERSIONS } from "../render/gbfs/feed.js";
import { vehicleTypesOf } from "../render/gbfs/vehicle-types.js";
import { encodeJson } from "../render/json-body.js";
import type { StationSurface } from "../station-files.js";
import {
  type MinuteState,
  type PackedState,
  pack,
  pathOfStatus,
  type RefreshState,
} from "./refresh-state.js";

/** What the previous run published, as far as the stations' answers go. */
export interface PublishedBytes {
  /** Per station surface: the bytes of its list of all stations. */
  allLists: readonly Buffer[];
  /** Per contract, per GBFS version: its station_status file (`pathOfStatus`). */
  statusFeeds: ReadonlyMap<string, readonly Buffer[]>;
  /** The manifest's ETag and path at a position of its paths (`RefreshState.positions`). */
  etagAt(position: number): string | undefined;
  pathAt(position: number): string | undefined;
}

export interface Spliced {
  /** The answers that differ from the previous run's, by URL path. */
  changed: Map<string, ReleaseFile>;
  /** How many stations were rendered again. */
  stations: number;
  minute: Omit<MinuteState, "format" | "release" | "static">;
}

/** A list member: one chunk, as `listFile` wants it. */
interface Member {
  body: [Uint8Array];
  size: number;
  etag: string;
}

/**
 * Null when the kept state does not describe the published bytes (an offset out of range, a
 * station whose path is not at its recorded place): the caller then renders everything.
 */
export function spliceStations(
  state: RefreshState,
  dataset: Dataset,
  published: PublishedBytes,
  surfaces: readonly StationSurface[],
  refreshSeconds: number,
): Spliced | null {
  const { stations } = dataset;
  const count = stations.length;
  const states: (PackedState | null)[] = new Array(count);
  const fresh: boolean[] = new Array(count).fill(false);
  let rendered = 0;
  for (let index = 0; index < count; index++) {
    const station = stations[index] as Station;
    const live = dataset.states.get(stationKey(station.contract, station.number));
    const packed = live ? pack(live) : null;
    states[index] = packed;
    if (!samePacked(packed, state.states[index] ?? null)) {
      fresh[index] = true;
      rendered++;
    }
  }
  const changed = new Map<string, ReleaseFile>();
  const minute = {
    states,
    offsets: state.offsets.map((starts) => starts.slice()),
    statusStarts: state.statusStarts.map((starts) => starts.slice()),
    statusSizes: state.statusSizes.map((sizes) => sizes.slice()),
  };
  if (rendered === 0) return { changed, stations: 0, minute };

  // Each station's answer per surface: its bytes as published, or rendered again.
  const members: Member[][] = surfaces.map(() => new Array(count));
  const entries: (readonly Uint8Array[] | undefined)[] = new Array(count);
  const byContract = new Map<string, number[]>();
  const touched = new Set<string>();
  for (let index = 0; index < count; index++) {
    const station = stations[index] as Station;
    const group = byContract.get(station.contract);
    if (group) group.push(index);
    else byContract.set(station.contract, [index]);
    for (let surface = 0; surface < surfaces.length; surface++) {
      const member = fresh[index]
        ? renderedMember(station, index, dataset, state, published, surfaces, surface, changed)
        : keptMember(index, state, published, surface);
      if (!member) return null;
      (members[surface] as Member[])[index] = member;
    }
    if (fresh[index]) touched.add(station.contract);
  }

  for (const contract of dataset.contracts) {
    if (!touched.has(contract.name)) continue;
    const group = byContract.get(contract.name) ?? [];
    surfaces.forEach((surface, at) => {
      const all = members[at] as Member[];
      put(
        changed,
        surface.contractList(contract.name),
        group.map((index) => all[index] as Member),
      );
    });
    const types = vehicleTypesOf(contract);
    const feeds = published.statusFeeds.get(contract.name);
    let newest: string | null = null;
    for (const index of group) {
      const station = stations[index] as Station;
      const live = dataset.states.get(stationKey(station.contract, station.number));
      // Published form `YYYY-MM-DDTHH:MM:SSZ`, all UTC: text order is time order.
      if (live?.lastUpdate && (newest === null || live.lastUpdate > newest))
        newest = live.lastUpdate;
      if (fresh[index]) entries[index] = stationStatusEntries(station, live, types);
      else {
        const kept = GBFS_VERSIONS.map((_, version) => {
          const start = state.statusStarts[version]?.[index] ?? -1;
          const size = state.statusSizes[version]?.[index] ?? -1;
          const feed = feeds?.[version];
          return feed && start > 0 && size > 0 && start + size <= feed.length
            ? feed.subarray(start, start + size)
            : null;
        });
        if (kept.some((entry) => entry === null)) return null;
        entries[index] = kept as Uint8Array[];
      }
    }
    const files = gbfsStatusFiles(
      contract.name,
      group.map((index) => entries[index] as readonly Uint8Array[]),
      newest,
      refreshSeconds,
    );
    for (const [path, file] of files) changed.set(path, file);
    locateEntries(files, contract.name, group, entries, minute);
  }

  surfaces.forEach((surface, at) => {
    const all = members[at] as Member[];
    put(changed, surface.all, all);
    // `[a,b,c]`: each station's bytes follow `[` or a comma.
    const starts = minute.offsets[at] as number[];
    let offset = 1;
    for (let index = 0; index < count; index++) {
      starts[index] = offset;
      offset += (all[index] as Member).size + 1;
    }
  });
  return { changed, stations: rendered, minute };
}

function renderedMember(
  station: Station,
  index: number,
  dataset: Dataset,
  state: RefreshState,
  published: PublishedBytes,
  surfaces: readonly StationSurface[],
  surface: number,
  changed: Map<string, ReleaseFile>,
): Member | null {
  const live = dataset.states.get(stationKey(station.contract, station.number));
  const at = surfaces[surface] as StationSurface;
  const endpoint = at.station(station.contract, station.number);
  const path = pathOf(endpoint);
  // The kept positions are the manifest's only if this station's path is where they say.
  if (published.pathAt(state.positions[surface]?.[index] ?? -1) !== path) return null;
  const file = endpointFile(endpoint, [encodeJson(at.render(station, live))]);
  changed.set(path, file);
  return { body: [file.body[0] as Uint8Array], size: file.size, etag: file.etag };
}

function keptMember(
  index: number,
  state: RefreshState,
  published: PublishedBytes,
  surface: number,
): Member | null {
  const bytes = published.allLists[surface] as Buffer;
  const starts = state.offsets[surface] ?? [];
  const start = starts[index] ?? Number.NaN;
  const end = index + 1 < starts.length ? (starts[index + 1] ?? Number.NaN) - 1 : bytes.length - 1;
  const etag = published.etagAt(state.positions[surface]?.[index] ?? -1);
  if (!(start >= 1 && end >= start && end < bytes.length) || etag === undefined) return null;
  return { body: [bytes.subarray(start, end)], size: end - start, etag };
}

function put(changed: Map<string, ReleaseFile>, endpoint: Endpoint, members: Member[]): void {
  changed.set(pathOf(endpoint), listFile(endpoint, members as unknown as ReleaseFile[]));
}

/** Records where each station's entries sit in the new station_status files, found by identity. */
function locateEntries(
  files: ReadonlyMap<string, ReleaseFile>,
  contract: string,
  group: readonly number[],
  entries: readonly (readonly Uint8Array[] | undefined)[],
  minute: Pick<MinuteState, "statusStarts" | "statusSizes">,
): void {
  GBFS_VERSIONS.forEach((version, versionIndex) => {
    const file = files.get(pathOfStatus(contract, version));
    const starts = minute.statusStarts[versionIndex] as number[];
    const sizes = minute.statusSizes[versionIndex] as number[];
    let next = 0;
    let at = 0;
    for (const chunk of file?.body ?? []) {
      const index = group[next];
      if (index !== undefined && entries[index]?.[versionIndex] === chunk) {
        starts[index] = at;
        sizes[index] = chunk.byteLength;
        next++;
      }
      at += chunk.byteLength;
    }
  });
}

function samePacked(a: PackedState | null, b: PackedState | null): boolean {
  if (a === null || b === null) return a === b;
  return (
    a[0] === b[0] &&
    a[1] === b[1] &&
    a[2] === b[2] &&
    sameNumbers(a[3], b[3]) &&
    (a[4] === null || b[4] === null ? a[4] === b[4] : sameNumbers(a[4], b[4]))
  );
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let at = 0; at < a.length; at++) if (a[at] !== b[at]) return false;
  return true;
}
