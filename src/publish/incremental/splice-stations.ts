// A cron refresh's dynamic answers (pure): only the stations whose state changed are rendered; the
// lists and station_status feeds holding them are spliced from the previous run's published bytes,
// each run of unchanged stations one slice of them (a list of 100,000 stations is a few thousand
// chunks, not 100,000).
import type { Station } from "../../model/station.js";
import { pathOf } from "../../routes/routes.js";
import { type Dataset, stationKey } from "../../source/dataset.js";
import { gbfsStatusFiles, stationStatusEntries } from "../gbfs-files.js";
import { endpointFile, listFileOf, type ReleaseFile } from "../release.js";
import { GBFS_VERSIONS } from "../render/gbfs/feed.js";
import { vehicleTypesOf } from "../render/gbfs/vehicle-types.js";
import { encodeJson, jsonList } from "../render/json-body.js";
import type { StationSurface } from "../station-files.js";
import {
  type MinuteState,
  type PackedState,
  pack,
  packsTo,
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

/** The items of a list `[…]`: a station rendered again, or a run of unchanged ones as published. */
interface Items {
  items: Uint8Array[];
  /** Per item: the first station it holds (a position in the dataset's stations). */
  firsts: number[];
  size: number;
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
    const before = state.states[index] ?? null;
    if (packsTo(live, before)) states[index] = before;
    else {
      states[index] = live ? pack(live) : null;
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

  // Per surface: where each station's bytes sit in the list of all stations, its size and ETag.
  const spans = surfaces.map((_, surface) => publishedSpans(state, published, surface, count));
  if (spans.some((span) => span === null)) return null;
  const rendering: (Uint8Array | undefined)[][] = surfaces.map(() => new Array(count));
  const etags: string[][] = surfaces.map(() => new Array(count));
  const byContract = new Map<string, number[]>();
  for (let index = 0; index < count; index++) {
    const station = stations[index] as Station;
    const group = byContract.get(station.contract);
    if (group) group.push(index);
    else byContract.set(station.contract, [index]);
    for (let surface = 0; surface < surfaces.length; surface++) {
      const span = spans[surface] as Span;
      if (!fresh[index]) {
        const etag = published.etagAt(state.positions[surface]?.[index] ?? -1);
        if (etag === undefined) return null;
        (etags[surface] as string[])[index] = etag;
        continue;
      }
      const at = surfaces[surface] as StationSurface;
      const endpoint = at.station(station.contract, station.number);
      const path = pathOf(endpoint);
      // The kept positions are the manifest's only if this station's path is where they say.
      if (published.pathAt(state.positions[surface]?.[index] ?? -1) !== path) return null;
      const live = dataset.states.get(stationKey(station.contract, station.number));
      const file = endpointFile(endpoint, [encodeJson(at.render(station, live))]);
      changed.set(path, file);
      (rendering[surface] as Uint8Array[])[index] = file.body[0] as Uint8Array;
      (etags[surface] as string[])[index] = file.etag;
      span.sizes[index] = file.size;
    }
  }

  for (const contract of dataset.contracts) {
    const group = byContract.get(contract.name) ?? [];
    if (!group.some((index) => fresh[index])) continue;
    surfaces.forEach((surface, at) => {
      const span = spans[at] as Span;
      const own = rendering[at] as Uint8Array[];
      const list = itemsOf(group, fresh, (index) => own[index] as Uint8Array, span, true);
      const tags = group.map((index) => (etags[at] as string[])[index] as string);
      const endpoint = surface.contractList(contract.name);
      changed.set(pathOf(endpoint), listFileOf(endpoint, jsonList(list.items), list.size, tags));
    });
    if (
      !spliceStatus(
        contract,
        group,
        dataset,
        fresh,
        published,
        state,
        minute,
        changed,
        refreshSeconds,
      )
    )
      return null;
  }

  const everyStation = Array.from({ length: count }, (_, index) => index);
  surfaces.forEach((surface, at) => {
    const span = spans[at] as Span;
    const own = rendering[at] as Uint8Array[];
    const list = itemsOf(everyStation, fresh, (index) => own[index] as Uint8Array, span, true);
    changed.set(
      pathOf(surface.all),
      listFileOf(surface.all, jsonList(list.items), list.size, etags[at] as string[]),
    );
    // `[a,b,c]`: each station's bytes follow `[` or a comma.
    const starts = minute.offsets[at] as number[];
    let offset = 1;
    for (let index = 0; index < count; index++) {
      starts[index] = offset;
      offset += (span.sizes[index] as number) + 1;
    }
  });
  return { changed, stations: rendered, minute };
}

/** Where the stations' bytes sit in one published list: start and size per station. */
interface Span {
  bytes: Buffer;
  starts: readonly number[];
  /** Sizes as published; a station rendered again gets its new size. */
  sizes: number[];
}

function publishedSpans(
  state: RefreshState,
  published: PublishedBytes,
  surface: number,
  count: number,
): Span | null {
  const bytes = published.allLists[surface] as Buffer;
  const starts = state.offsets[surface] ?? [];
  if (starts.length !== count) return null;
  const sizes: number[] = new Array(count);
  for (let index = 0; index < count; index++) {
    const start = starts[index] as number;
    const end = index + 1 < count ? (starts[index + 1] as number) - 1 : bytes.length - 1;
    if (!(start >= 1 && end >= start && end < bytes.length)) return null;
    sizes[index] = end - start;
  }
  return { bytes, starts, sizes };
}

/**
 * The items of a list of `members` (positions, in order): a station rendered again is its own
 * item; consecutive unchanged stations that are neighbours in the published bytes (`adjacent`:
 * the next position) are one slice of them, commas between them included.
 */
function itemsOf(
  members: readonly number[],
  fresh: readonly boolean[],
  rendering: (index: number) => Uint8Array,
  span: Span,
  adjacent: boolean,
): Items {
  const items: Uint8Array[] = [];
  const firsts: number[] = [];
  let size = 2 + Math.max(0, members.length - 1);
  let runFirst = -1;
  let runLast = -1;
  const closeRun = () => {
    if (runFirst < 0) return;
    const start = span.starts[runFirst] as number;
    const end = (span.starts[runLast] as number) + (span.sizes[runLast] as number);
    items.push(span.bytes.subarray(start, end));
    firsts.push(runFirst);
    runFirst = -1;
  };
  for (const index of members) {
    size += span.sizes[index] as number;
    if (fresh[index]) {
      closeRun();
      items.push(rendering(index));
      firsts.push(index);
    } else if (runFirst >= 0 && (!adjacent || index === runLast + 1)) runLast = index;
    else {
      closeRun();
      runFirst = index;
      runLast = index;
    }
  }
  closeRun();
  return { items, firsts, size };
}

/** A contract's station_status, both versions, spliced the same way; null when out of range. */
function spliceStatus(
  contract: Dataset["contracts"][number],
  group: readonly number[],
  dataset: Dataset,
  fresh: readonly boolean[],
  published: PublishedBytes,
  state: RefreshState,
  minute: Pick<MinuteState, "statusStarts" | "statusSizes">,
  changed: Map<string, ReleaseFile>,
  refreshSeconds: number,
): boolean {
  const types = vehicleTypesOf(contract);
  const feeds = published.statusFeeds.get(contract.name);
  let newest: string | null = null;
  const renderedEntries = new Map<number, readonly Uint8Array[]>();
  for (const index of group) {
    const station = dataset.stations[index] as Station;
    const live = dataset.states.get(stationKey(station.contract, station.number));
    // Published form `YYYY-MM-DDTHH:MM:SSZ`, all UTC: text order is time order.
    if (live?.lastUpdate && (newest === null || live.lastUpdate > newest)) newest = live.lastUpdate;
    if (fresh[index]) renderedEntries.set(index, stationStatusEntries(station, live, types));
  }
  // In a contract's feed its stations are neighbours in group order: every run is one slice.
  const runs = GBFS_VERSIONS.map((_, version) => {
    const bytes = feeds?.[version];
    const starts = state.statusStarts[version] ?? [];
    const sizes = (minute.statusSizes[version] as number[]).slice();
    for (const index of group) {
      const start = starts[index] ?? -1;
      const size = sizes[index] ?? -1;
      if (fresh[index]) sizes[index] = renderedEntries.get(index)?.[version]?.byteLength ?? 0;
      else if (!bytes || !(start > 0 && size > 0 && start + size <= bytes.length)) return null;
    }
    const rendering = (index: number) => renderedEntries.get(index)?.[version] as Uint8Array;
    return itemsOf(group, fresh, rendering, { bytes: bytes as Buffer, starts, sizes }, false);
  });
  if (runs.some((run) => run === null)) return false;
  const items = runs as Items[];
  // gbfsStatusFiles joins its entries with commas: a run, commas inside, is one entry to it.
  const entries = (items[0] as Items).items.map((_, at) =>
    items.map((version) => version.items[at] as Uint8Array),
  );
  const files = gbfsStatusFiles(contract.name, entries, newest, refreshSeconds);
  for (const [path, file] of files) changed.set(path, file);
  GBFS_VERSIONS.forEach((version, versionIndex) => {
    locateEntries(
      files.get(pathOfStatus(contract.name, version)),
      items[versionIndex] as Items,
      group,
      fresh,
      state.statusStarts[versionIndex] ?? [],
      minute.statusStarts[versionIndex] as number[],
      minute.statusSizes[versionIndex] as number[],
      (index) => renderedEntries.get(index)?.[versionIndex]?.byteLength ?? 0,
    );
  });
  return true;
}

/**
 * Where each station's entry sits in a new station_status file: each item found in its body by
 * identity; a station inside a run keeps its distance from the run's first.
 */
function locateEntries(
  file: ReleaseFile | undefined,
  list: Items,
  group: readonly number[],
  fresh: readonly boolean[],
  oldStarts: readonly number[],
  starts: number[],
  sizes: number[],
  renderedSize: (index: number) => number,
): void {
  const itemAt = new Map<Uint8Array, number>();
  let next = 0;
  let at = 0;
  for (const chunk of file?.body ?? []) {
    if (chunk === list.items[next]) {
      itemAt.set(chunk, at);
      next++;
    }
    at += chunk.byteLength;
  }
  let item = -1;
  let runStart = 0;
  let runOldStart = 0;
  for (const index of group) {
    if (list.firsts[item + 1] === index) {
      item++;
      runStart = itemAt.get(list.items[item] as Uint8Array) ?? -1;
      runOldStart = oldStarts[index] ?? 0;
    }
    if (fresh[index]) {
      starts[index] = runStart;
      sizes[index] = renderedSize(index);
    } else starts[index] = runStart + ((oldStarts[index] ?? 0) - runOldStart);
  }
}
