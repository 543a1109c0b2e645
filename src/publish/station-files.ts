// The dynamic answers of every station API (v3, v1, GBFS): each station, each contract's list and
// GBFS station_status, the list of all, re-rendered only where a state changed.

import { IndexedMap } from "../indexed-map.js";
import type { Availabilities } from "../model/api.js";
import type { Station } from "../model/station.js";
import { oncePerObject } from "../once-per-object.js";
import { publishedTime } from "../published-time.js";
import { type Endpoint, pathOf } from "../routes/routes.js";
import { type Dataset, type LiveState, stationKey } from "../source/dataset.js";
import { keptDisconnected } from "../source/kept-states.js";
import { withFields } from "../with-fields.js";
import { type Encode, encodedTogether } from "./encoded-together.js";
import {
  gbfsStatusFiles,
  stationStatusEntries,
  stationStatusTexts,
  statusUpdated,
} from "./gbfs-files.js";
import { type ListLayout, listLayouts } from "./list-layout.js";
import { endpointFile, listFile, type ReleaseFile, withMembers } from "./release.js";
import { GBFS_VERSIONS } from "./render/gbfs/feed.js";
import { vehicleTypesOf } from "./render/gbfs/vehicle-types.js";
import { stationV1Json, stationV3Json } from "./render/station-json.js";
import { renderStationV1 } from "./render/v1.js";
import { renderStationV3 } from "./render/v3.js";
import { type DigestColumn, digestColumn, putDigest } from "./status-tag.js";

/** One station API: how a station renders, and the endpoints of a station, a contract's list, all. */
export interface StationSurface {
  render(station: Station, state: LiveState | undefined): unknown;
  /** `JSON.stringify(render(station, state))`, written without the object (see station-json.ts). */
  json(station: Station, state: LiveState | undefined): string;
  station(contract: string, number: number): Endpoint;
  contractList(contract: string): Endpoint;
  all: Endpoint;
}

export const SURFACES: readonly StationSurface[] = [
  {
    render: renderStationV3,
    json: stationV3Json,
    station: (contract, number) => ({ name: "station", contract, number }),
    contractList: (contract) => ({ name: "contractStations", contract }),
    all: { name: "stations" },
  },
  {
    render: renderStationV1,
    json: stationV1Json,
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
  /**
   * Its GBFS station_status entry, encoded, per version (see stationStatusEntries): each contract's
   * feed is assembled from these. Absent when the rendering was read back from disk.
   */
  status?: readonly Uint8Array[];
}

/** What one publish leaves for the next: rendered stations and lists. */
export interface StationCache {
  /** By `stationKey`. */
  readonly stations: ReadonlyMap<string, RenderedStation>;
  readonly lists: ReadonlyMap<string, ReleaseFile>;
  /** Each contract's GBFS station_status files (both versions, every path), by contract name. */
  readonly gbfsStatus: ReadonlyMap<string, ReadonlyMap<string, ReleaseFile>>;
  /**
   * The digests of the entries of those files, per contract, per version (see status-tag.ts):
   * the next refresh hashes only the entries it renders again.
   */
  readonly statusDigests: ReadonlyMap<string, readonly DigestColumn[]>;
  /**
   * The `last_updated` those files say, when the states' time gave it (published form); absent
   * when each contract's newest report did.
   */
  readonly statusAt?: string;
  /**
   * The same renderings in the order of the stations they were made for: a refresh over the same
   * static data (the server's, every minute) finds each by position, formatting no key.
   */
  readonly inOrder?: {
    readonly of: readonly Station[];
    readonly rendered: readonly RenderedStation[];
  };
}

export interface StationFiles {
  /**
   * Every dynamic answer, paths and files aligned, in the order made. Not a Map: the caller puts
   * them after the static answers in its own, and a second Map of a million stations' 2 million
   * paths made their publish 1.1-2.8 s slower (42.7-43.3 s against 40.6-41.7 s in memory).
   */
  paths: string[];
  files: ReleaseFile[];
  cache: StationCache;
}

export interface StationChanges {
  /** Only the answers rendered again: the ones that differ from the previous cache's. */
  changed: Map<string, ReleaseFile>;
  cache: StationCache;
}

/**
 * `refreshSeconds`: how long GBFS consumers may keep station_status (its `ttl`); `encode`: how
 * each rendering's texts become bytes (default one buffer per station, as a server needs);
 * `onContract`: given each contract's answers as soon as they are made, then the lists of all.
 */
export function renderStationFiles(
  dataset: Dataset,
  previous: StationCache | undefined,
  refreshSeconds: number,
  encode: Encode = encodedTogether,
  onContract?: (files: readonly (readonly [string, ReleaseFile])[]) => void,
): StationFiles {
  const made = stationFilesMade(onContract);
  const steps = renderStations(dataset, previous, refreshSeconds, made.put, encode);
  let step = steps.next();
  while (!step.done) {
    made.handOver();
    step = steps.next();
  }
  return made.done(step.value);
}

/**
 * renderStationFiles in steps, one contract at a time, with `pause` awaited between two: a server
 * publishing an edit of its static source keeps answering meanwhile.
 */
export async function renderStationFilesInSteps(
  dataset: Dataset,
  previous: StationCache | undefined,
  refreshSeconds: number,
  pause: () => Promise<void>,
): Promise<StationFiles> {
  const made = stationFilesMade();
  const steps = renderStations(dataset, previous, refreshSeconds, made.put);
  let step = steps.next();
  while (!step.done) {
    await pause();
    step = steps.next();
  }
  return made.done(step.value);
}

/** Every answer put, paths and files aligned; each contract's handed to `onContract` at once. */
function stationFilesMade(
  onContract?: (files: readonly (readonly [string, ReleaseFile])[]) => void,
) {
  const paths: string[] = [];
  const files: ReleaseFile[] = [];
  let made: [string, ReleaseFile][] = [];
  const handOver = () => {
    if (made.length > 0) onContract?.(made);
    made = [];
  };
  return {
    put: (path: string, file: ReleaseFile) => {
      paths.push(path);
      files.push(file);
      if (onContract) made.push([path, file]);
    },
    handOver,
    done: (cache: StationCache): StationFiles => {
      handOver();
      return { paths, files, cache };
    },
  };
}

/**
 * Only the answers that differ from `previous`'s, for a refresh that starts from the release it
 * served. In steps, one contract at a time: the caller may let other work run between two
 * (`pause`), as a server does to keep answering while it refreshes.
 */
export async function renderStationChanges(
  dataset: Dataset,
  previous: StationCache,
  refreshSeconds: number,
  pause: () => Promise<void>,
): Promise<StationChanges> {
  const changed = new Map<string, ReleaseFile>();
  const put = (path: string, file: ReleaseFile, fresh: boolean) => {
    if (fresh) changed.set(path, file);
  };
  const steps = renderStations(dataset, previous, refreshSeconds, put, undefined, true);
  let step = steps.next();
  while (!step.done) {
    await pause();
    step = steps.next();
  }
  return { changed, cache: step.value };
}

type Put = (path: string, file: ReleaseFile, fresh: boolean) => void;

/**
 * Hands every dynamic answer to `put`, saying which were rendered again; yields after each
 * contract. `encode` makes each rendering's bytes (see encoded-together.ts). `freshOnly`: the
 * single-station answers kept as they were are not handed over (a refresh wants only what
 * changed: at a million stations, three calls per station that did nothing took ~0.4 s of each
 * minute).
 */
function* renderStations(
  dataset: Dataset,
  previous: StationCache | undefined,
  refreshSeconds: number,
  put: Put,
  encode: Encode = encodedTogether,
  freshOnly = false,
): Generator<undefined, StationCache> {
  const { stations } = dataset;
  const keys = keysOf(stations);
  const stateAt = statesByPosition(stations, dataset.states);
  // Same static data as last time: each station's previous rendering is at its own position.
  const before = previous?.inOrder?.of === stations ? previous.inOrder.rendered : undefined;
  const byKey = before ? undefined : previous?.stations;
  const rendered: RenderedStation[] = new Array(stations.length);
  const lists = new Map<string, ReleaseFile>();
  const gbfsStatus = new Map<string, ReadonlyMap<string, ReleaseFile>>();
  const statusDigests = new Map<string, readonly DigestColumn[]>();
  let anyChanged = false;
  // Where stations were rendered again: by position in the list of all, and in their contract's.
  const freshInAll: number[] = [];
  // Every contract's station_status says when the states were known; a feed made for another
  // time is made again, whether or not its stations changed.
  const statusAt = dataset.statesAt && publishedTime(dataset.statesAt);
  const sameStatusTime = previous?.statusAt === statusAt;

  for (const contract of dataset.contracts) {
    const members = membersOf(stations).get(contract.name) ?? [];
    const types = vehicleTypesOf(contract);
    let changed = false;
    const fresh: number[] = [];
    let newest: string | null = null;
    for (let position = 0; position < members.length; position++) {
      const index = members[position] as number;
      const station = stations[index] as Station;
      const key = keys[index] as string;
      const prior = before ? before[index] : byKey?.get(key);
      // A station the new states leave out keeps the state of the release being replaced, marked
      // disconnected (see kept-states.ts); kept again, it equals its rendering: nothing is redone.
      const state = stateAt(index, key) ?? (prior?.state && keptDisconnected(prior.state));
      let done: RenderedStation;
      if (prior && prior.station === station && sameState(prior.state, state)) {
        done = prior.status
          ? prior
          : withFields(prior, { status: stationStatusEntries(station, state, types) });
        if (!freshOnly)
          for (let surface = 0; surface < done.paths.length; surface++)
            put(done.paths[surface] as string, done.files[surface] as ReleaseFile, false);
      } else {
        const endpoints = SURFACES.map((surface) =>
          surface.station(station.contract, station.number),
        );
        // Its answers and entries share one buffer: they are replaced together, and so is it.
        const texts = SURFACES.map((surface) => surface.json(station, state));
        const bytes = encode(texts.concat(stationStatusTexts(station, state, types)));
        done = {
          station,
          state,
          files: endpoints.map((endpoint, surfaceIndex) =>
            endpointFile(endpoint, [bytes[surfaceIndex] as Buffer]),
          ),
          paths: prior?.station === station ? prior.paths : endpoints.map(pathOf),
          status: bytes.slice(SURFACES.length),
        };
        changed = true;
        fresh.push(position);
        freshInAll.push(index);
        for (let surface = 0; surface < done.paths.length; surface++)
          put(done.paths[surface] as string, done.files[surface] as ReleaseFile, true);
      }
      rendered[index] = done;
      // Published form `YYYY-MM-DDTHH:MM:SSZ`, all UTC: text order is time order.
      const reported = state?.lastUpdate;
      if (reported && (newest === null || reported > newest)) newest = reported;
    }
    SURFACES.forEach((surface, surfaceIndex) => {
      const endpoint = surface.contractList(contract.name);
      const path = pathOf(endpoint);
      const prior = previous?.lists.get(path);
      const list =
        !changed && prior
          ? prior
          : ((before &&
              prior &&
              patched(prior, endpoint, fresh, members, rendered, surfaceIndex)) ??
            listOf(endpoint, members, rendered, surfaceIndex));
      anyChanged ||= list !== prior;
      lists.set(path, list);
      put(path, list, list !== prior);
    });
    // Like the lists: a contract whose stations did not change keeps its file, if of this time.
    const priorStatus = sameStatusTime ? previous?.gbfsStatus.get(contract.name) : undefined;
    const priorDigests = previous?.statusDigests.get(contract.name);
    let status: ReadonlyMap<string, ReleaseFile>;
    let digests: readonly DigestColumn[];
    if (!changed && priorStatus && priorDigests) {
      status = priorStatus;
      digests = priorDigests;
    } else {
      const entries = members.map((index) => (rendered[index] as RenderedStation).status ?? []);
      // The digests kept are patched only where they are the same stations' in the same places.
      digests = digestsOf(entries, fresh, before ? priorDigests : undefined);
      const updated = statusUpdated(statusAt, newest);
      status = gbfsStatusFiles(contract.name, entries, digests, updated, refreshSeconds);
    }
    gbfsStatus.set(contract.name, status);
    statusDigests.set(contract.name, digests);
    for (const [path, file] of status) put(path, file, status !== priorStatus);
    yield;
  }

  SURFACES.forEach((surface, surfaceIndex) => {
    const path = pathOf(surface.all);
    const prior = previous?.lists.get(path);
    const sameStations = before !== undefined || previous?.stations.size === stations.length;
    const positions = allPositions(stations);
    const all =
      !anyChanged && prior && sameStations
        ? prior
        : ((before &&
            prior &&
            patched(prior, surface.all, freshInAll, positions, rendered, surfaceIndex)) ??
          listOf(surface.all, positions, rendered, surfaceIndex));
    lists.set(path, all);
    put(path, all, all !== prior);
  });
  return cacheOf(stations, rendered, { lists, gbfsStatus, statusDigests }, statusAt);
}

/**
 * Each version's digests of a contract's entries (per station, per version): `prior`'s, copied
 * with those at `fresh` (positions) hashed again when there are any, or every one hashed when
 * there is no prior.
 */
function digestsOf(
  entries: readonly (readonly Uint8Array[])[],
  fresh: readonly number[],
  prior: readonly DigestColumn[] | undefined,
): readonly DigestColumn[] {
  if (prior && fresh.length === 0) return prior;
  return GBFS_VERSIONS.map((_, version) => {
    const entry = (position: number) => entries[position]?.[version] as Uint8Array;
    const kept = prior?.[version];
    if (!kept) return digestColumn(entries.map((_, position) => entry(position)));
    const column = Buffer.from(kept);
    for (const position of fresh) putDigest(column, position, entry(position));
    return column;
  });
}

/** `[a,b,c]` of the members' own bytes: single-station files are one chunk, shared by every list. */
function listOf(
  endpoint: Endpoint,
  members: readonly number[],
  rendered: readonly RenderedStation[],
  surface: number,
): ReleaseFile {
  return listFile(
    endpoint,
    members.map((index) => rendered[index]?.files[surface] as ReleaseFile),
  );
}

/**
 * The list `prior` (of the same members, in the same order) with those at `fresh` (positions in
 * it) rendered again: its chunks and tags copied and patched, not gathered and hashed again.
 */
function patched(
  prior: ReleaseFile,
  endpoint: Endpoint,
  fresh: readonly number[],
  members: readonly number[],
  rendered: readonly RenderedStation[],
  surface: number,
): ReleaseFile | undefined {
  const replaced = fresh.map(
    (position) =>
      [position, rendered[members[position] as number]?.files[surface] as ReleaseFile] as const,
  );
  return withMembers(prior, endpoint, replaced);
}

function cacheOf(
  stations: readonly Station[],
  rendered: readonly RenderedStation[],
  files: Pick<StationCache, "lists" | "gbfsStatus" | "statusDigests">,
  statusAt: string | undefined,
): StationCache {
  let byKey: Map<string, RenderedStation> | undefined;
  const keys = keysOf(stations);
  return {
    // Made only for a reader that asks by key (the cron refresh's state): a server never does.
    get stations() {
      byKey ??= new Map(rendered.map((done, index) => [keys[index] as string, done]));
      return byKey;
    },
    ...files,
    ...(statusAt ? { statusAt } : {}),
    inOrder: { of: stations, rendered },
  };
}

// Derived once per list of stations: a server renders the same static data every minute.
const keysOf = oncePerObject((stations: readonly Station[]): readonly string[] =>
  stations.map((station) => stationKey(station.contract, station.number)),
);

/** Each contract's stations, as positions in `stations`, in source order. */
const membersOf = oncePerObject(
  (stations: readonly Station[]): ReadonlyMap<string, readonly number[]> => {
    const groups = new Map<string, number[]>();
    stations.forEach((station, index) => {
      const group = groups.get(station.contract);
      if (group) group.push(index);
      else groups.set(station.contract, [index]);
    });
    return groups;
  },
);

/**
 * How each surface's list of all these stations is made of its contracts' lists, when it is: a
 * build and a server's refresh join the variants of those lists of their contracts' (listLayouts).
 */
export const stationListLayouts = oncePerObject(
  (stations: readonly Station[]): readonly ListLayout[] | undefined =>
    listLayouts(membersOf(stations), SURFACES),
);

const allPositions = oncePerObject((stations: readonly Station[]): readonly number[] =>
  stations.map((_, index) => index),
);

/**
 * Each station's state by its position in `stations`. States read by the server share one index
 * of keys from minute to minute (an IndexedMap): where each station's state sits in it is found
 * once, and a refresh looks 100,000 states up by position, hashing no key.
 */
function statesByPosition(
  stations: readonly Station[],
  states: ReadonlyMap<string, LiveState>,
): (index: number, key: string) => LiveState | undefined {
  if (!(states instanceof IndexedMap)) return (_, key) => states.get(key);
  const slots = slotsOf(states.keyList)(stations);
  return (index) => {
    const slot = slots[index] as number;
    return slot < 0 ? undefined : states.valueAt(slot);
  };
}

/** For each station, the position of its key in `keyList`, or -1. */
const slotsOf = oncePerObject((keyList: readonly string[]) => {
  const positions = new Map(keyList.map((key, at) => [key, at]));
  return oncePerObject(
    (stations: readonly Station[]): Int32Array =>
      Int32Array.from(keysOf(stations), (key) => positions.get(key) ?? -1),
  );
});

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
