// The state a cron refresh carries from one run to the next (pure): the validated static records,
// each station's last state, and where each station's bytes sit in the published files: the lists
// of all stations, its contract's GBFS station_status, and its own file's place in the manifest.

import type { Contract } from "../../model/contract.js";
import { pathOf } from "../../routes/routes.js";
import { type Dataset, stationKey } from "../../source/dataset.js";
import type { StaticSource } from "../../source/load-source.js";
import { placedIn, type Sourced } from "../../source/problems.js";
import type { SourceSeen } from "../../source/source-fingerprint.js";
import type { KeptStatesFile } from "../../tree/accepted-states.js";
import type { CacheSeen } from "../../tree/cache-seen.js";
import { gbfsEndpoints } from "../gbfs-files.js";
import { pathsInOrder } from "../paths-in-order.js";
import { type Release, staticFilesOf } from "../release.js";
import { GBFS_VERSIONS } from "../render/gbfs/feed.js";
import type { RenderedStation, StationCache } from "../station-files.js";
import { DIGEST_SIZE, scatterDigests } from "../status-tag.js";
import { emptyColumns, type StateColumns, setState, timesIndex } from "./state-columns.js";
import {
  recordsOfList,
  type StationRecords,
  storedRecords,
  storeRecords,
} from "./station-records.js";

/**
 * Another format (an older velodata's) is ignored: the next refresh renders everything. (Another
 * velodata's static answers need no new format: the source's fingerprint names the code too.)
 */
export const REFRESH_STATE_FORMAT = 10;

export interface RefreshState {
  format: typeof REFRESH_STATE_FORMAT;
  /** The release the tree held when this was written: any other release makes it stale. */
  release: string;
  baseUrl: string;
  /** The ttl its GBFS station_status feeds say (`--refresh`): another one renders them all again. */
  refreshSeconds: number;
  /** staticSourceFingerprint of the source folder the release was made from. */
  source: string;
  /**
   * The static files as the last run saw them when it took that fingerprint (or found it again
   * from them): written each minute, absent from an older velodata's state.
   */
  sourceSeen?: SourceSeen;
  parkings: number;
  contracts: Sourced<Contract>[];
  stations: StationRecords;
  /** Each station's state in that release, in columns. */
  states: StateColumns;
  /** The answers that are not the stations' (contracts, parkings, downloads…). */
  staticPaths: string[];
  /**
   * Per station surface: the byte offset of each station in the list of all stations (64-bit
   * floats: a list of millions of stations passes 2 GB).
   */
  offsets: Float64Array[];
  /**
   * Per station surface: the position of each station's own file among the manifest's paths
   * (sorted, the same while the static source is: a refresh changes bytes, never paths).
   */
  positions: number[][];
  /** How many paths that manifest holds: another count means the positions are not its. */
  pathCount: number;
  /**
   * Per GBFS version (GBFS_VERSIONS order): where each station's entry sits in its contract's
   * station_status file (the first path it answers at), start and length in bytes.
   */
  statusStarts: Float64Array[];
  statusSizes: Int32Array[];
  /**
   * Per GBFS version: the digest of each station's entry (see status-tag.ts), DIGEST_SIZE bytes a
   * station in the stations' order: a refresh tags each feed without hashing its unchanged entries
   * again.
   */
  statusDigests: Buffer[];
  /**
   * The `last_updated` its station_status feeds say when the states' time gave it (published
   * form), null when each contract's newest report did: another one makes every feed again.
   */
  statusAt: string | null;
}

/** The part that changes only with the static source: kept on disk while it does not change. */
export type StaticState = Pick<
  RefreshState,
  | "format"
  | "baseUrl"
  | "refreshSeconds"
  | "source"
  | "parkings"
  | "contracts"
  | "stations"
  | "staticPaths"
  | "positions"
  | "pathCount"
>;

/**
 * The static part as written: each station's contract (a position in `contracts`) in the value,
 * each station's record on a line of its own after it (storeRecords), parsed only when rendered.
 */
export type StoredStaticState = Omit<StaticState, "stations"> & {
  stations: { contracts: number[] };
};

/** Null when a station's contract is not among the contracts (a build refuses that source). */
export function storeStatic(
  fixed: StaticState,
): { value: StoredStaticState; lines: Iterable<string> } | null {
  const stored = storeRecords(fixed.stations);
  if (!stored) return null;
  return { value: { ...fixed, stations: { contracts: stored.contracts } }, lines: stored.lines };
}

/**
 * Null when the stored station records are malformed; `line` gives a station's line. The records'
 * places name the source folder `folder`, this run's.
 */
export function restoreStatic(
  stored: StoredStaticState,
  line: (index: number) => string | undefined,
  folder: string,
): StaticState | null {
  const stations = stored.stations?.contracts;
  if (!Array.isArray(stations) || !Array.isArray(stored.contracts)) return null;
  return {
    ...stored,
    contracts: stored.contracts.map(({ value, at }) => ({ value, at: placedIn(folder, at) })),
    stations: storedRecords(stations, line, folder),
  };
}

/**
 * The part each run writes again; `static` is the checksum of the static part it goes with, and
 * `staticSeen` how its file was seen once that checksum was found right (or written).
 */
export type MinuteState = Pick<
  RefreshState,
  | "format"
  | "release"
  | "states"
  | "offsets"
  | "statusStarts"
  | "statusSizes"
  | "statusDigests"
  | "statusAt"
  | "sourceSeen"
> & {
  static: string;
  staticSeen?: CacheSeen;
  /**
   * The states file this state was made from, kept beside the tree, its records' stations and
   * sizes in bytes (sizes absent: found again from the file's bytes).
   */
  accepted?: KeptStatesFile & { stations: Int32Array; sizes?: Int32Array };
};

/** The two parts of a state, each written to its own file. */
export function splitState(state: RefreshState): {
  fixed: StaticState;
  minute: Omit<MinuteState, "static">;
} {
  const { release, states, offsets, statusStarts, statusSizes, statusDigests, statusAt, ...fixed } =
    state;
  return {
    fixed,
    minute: {
      format: state.format,
      release,
      states,
      offsets,
      statusStarts,
      statusSizes,
      statusDigests,
      statusAt,
    },
  };
}

export interface RefreshStateInput {
  release: Release;
  baseUrl: string;
  refreshSeconds: number;
  source: string;
  staticSource: StaticSource;
  dataset: Dataset;
  /** The release's station renderings, one file per station surface. */
  stations: StationCache;
  surfaces: number;
}

export function refreshStateOf(input: RefreshStateInput): RefreshState {
  const { release, dataset } = input;
  const rendered = renderingsOf(dataset, input.stations);
  const states = emptyColumns(dataset.stations.length);
  const timeAt = timesIndex(states);
  dataset.stations.forEach((station, index) => {
    // A station's rendering holds the state it was rendered from, or one equal to it in every
    // field the columns keep (renderings are reused only then): no key formatted and looked up
    // per station (~2 s of a build at a million stations).
    const done = rendered[index];
    const live =
      done?.station === station
        ? done.state
        : dataset.states.get(stationKey(station.contract, station.number));
    setState(states, index, live, timeAt);
  });
  const offsets: Float64Array[] = [];
  for (let surface = 0; surface < input.surfaces; surface++) {
    // `[a,b,c]`: each station's bytes follow `[` or a comma.
    let at = 1;
    const starts = new Float64Array(rendered.length);
    rendered.forEach((done, index) => {
      starts[index] = at;
      at += (done?.files[surface]?.size ?? 0) + 1;
    });
    offsets.push(starts);
  }
  // The manifest lists the release's paths in code-unit order (manifestOf).
  const sorted = pathsInOrder(release.files);
  const positionOf = new Map<string, number>();
  for (let position = 0; position < sorted.length; position++)
    positionOf.set(sorted[position] as string, position);
  const positions: number[][] = [];
  for (let surface = 0; surface < input.surfaces; surface++)
    positions.push(rendered.map((done) => positionOf.get(done?.paths[surface] ?? "") ?? -1));
  const { statusStarts, statusSizes, statusDigests } = statusPlaces(
    dataset,
    rendered,
    input.stations,
  );
  return {
    format: REFRESH_STATE_FORMAT,
    release: release.id,
    baseUrl: input.baseUrl,
    refreshSeconds: input.refreshSeconds,
    source: input.source,
    parkings: dataset.parkings.length,
    contracts: input.staticSource.contracts,
    stations: recordsOfList(input.staticSource.stations, input.staticSource.contracts),
    states,
    staticPaths: [...staticFilesOf(release.files).keys()],
    offsets,
    positions,
    pathCount: sorted.length,
    statusStarts,
    statusSizes,
    statusDigests,
    statusAt: input.stations.statusAt ?? null,
  };
}

/**
 * Each station's rendering, in the dataset's order: by position when the cache was made for these
 * stations (a key formatted and looked up per station and per use was ~0.3 s of a build at
 * 100,000 stations), else by key.
 */
function renderingsOf(
  dataset: Dataset,
  cache: StationCache,
): readonly (RenderedStation | undefined)[] {
  if (cache.inOrder?.of === dataset.stations) return cache.inOrder.rendered;
  return dataset.stations.map((station) =>
    cache.stations.get(stationKey(station.contract, station.number)),
  );
}

/**
 * Where each station's entries sit in its contract's station_status files, found by identity: the
 * entries come in the order of the contract's stations, between the feed's own bytes, so each
 * chunk is compared with the next station's entry alone (a map of a million stations' entries per
 * version took ~3 s of a build); any other order is looked up. Their digests from the cache's
 * columns, in the contracts' order (zeros for a station of no contract's feed).
 */
function statusPlaces(
  dataset: Dataset,
  rendered: readonly (RenderedStation | undefined)[],
  cache: StationCache,
): Pick<RefreshState, "statusStarts" | "statusSizes" | "statusDigests"> {
  const count = rendered.length;
  const statusStarts = GBFS_VERSIONS.map(() => new Float64Array(count).fill(-1));
  const statusSizes = GBFS_VERSIONS.map(() => new Int32Array(count).fill(-1));
  const digests = GBFS_VERSIONS.map(() => Buffer.alloc(count * DIGEST_SIZE));
  const byContract = new Map<string, number[]>();
  dataset.stations.forEach((station, index) => {
    const own = byContract.get(station.contract);
    if (own) own.push(index);
    else byContract.set(station.contract, [index]);
  });
  for (const contract of dataset.contracts) {
    const files = cache.gbfsStatus.get(contract.name);
    const own = byContract.get(contract.name) ?? [];
    const columns = cache.statusDigests.get(contract.name);
    GBFS_VERSIONS.forEach((version, versionIndex) => {
      const column = columns?.[versionIndex];
      if (column) scatterDigests(column, own, digests[versionIndex] as Buffer);
      const body = files?.get(pathOfStatus(contract.name, version))?.body ?? [];
      const starts = statusStarts[versionIndex] as Float64Array;
      const sizes = statusSizes[versionIndex] as Int32Array;
      const entryOf = (station: number) => rendered[station]?.status?.[versionIndex];
      let next = 0;
      let at = 0;
      for (const chunk of body) {
        const station = own[next];
        if (station !== undefined && chunk === entryOf(station)) {
          starts[station] = at;
          sizes[station] = chunk.byteLength;
          next++;
        }
        at += chunk.byteLength;
      }
      if (next === own.length) return;
      const byEntry = new Map<Uint8Array, number>();
      for (const station of own) {
        const entry = entryOf(station);
        if (entry) byEntry.set(entry, station);
      }
      at = 0;
      for (const chunk of body) {
        const station = byEntry.get(chunk);
        if (station !== undefined) {
          starts[station] = at;
          sizes[station] = chunk.byteLength;
        }
        at += chunk.byteLength;
      }
    });
  }
  return { statusStarts, statusSizes, statusDigests: digests };
}

/** The first path a contract's station_status answers at: the file a refresh reads back. */
export const pathOfStatus = (contract: string, version: (typeof GBFS_VERSIONS)[number]): string =>
  pathOf(gbfsEndpoints(contract, version, "station_status")[0]);
