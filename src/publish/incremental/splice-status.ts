// A contract's GBFS station_status, both versions, spliced from the published feed: the entries
// of the stations whose state changed rendered again, each run of unchanged ones one slice.

import type { Contract } from "../../model/contract.js";
import type { LiveState } from "../../source/dataset.js";
import { gbfsStatusFiles, stationStatusEntries, statusUpdated } from "../gbfs-files.js";
import type { ReleaseFile } from "../release.js";
import { GBFS_VERSIONS } from "../render/gbfs/feed.js";
import { vehicleTypesOf } from "../render/gbfs/vehicle-types.js";
import { gatherDigests, putDigest } from "../status-tag.js";
import { type MinuteState, pathOfStatus, type RefreshState } from "./refresh-state.js";
import type { PublishedBytes, SplicedStations } from "./splice-stations.js";
import { type Items, itemsOf } from "./spliced-items.js";
import { lastUpdateAt } from "./state-columns.js";

/** What every contract's station_status splice of one refresh shares. */
export interface StatusSplice {
  stations: SplicedStations;
  /** Per station: rendered again (its state changed). */
  fresh: readonly boolean[];
  /** The new state of each station rendered again. */
  lives: ReadonlyMap<number, LiveState | undefined>;
  published: PublishedBytes;
  state: RefreshState;
  /** Where the new feeds' entries are written down for the next run. */
  minute: Pick<MinuteState, "states" | "statusStarts" | "statusSizes">;
  /**
   * Per GBFS version, the digest of each station's entry (RefreshState's statusDigests, decoded):
   * those of the stations rendered again are written in.
   */
  digests: readonly Buffer[];
  add: (path: string, file: ReleaseFile) => void;
  refreshSeconds: number;
  /** The states file's time, published form (see statusUpdated). */
  statusAt: string | null;
}

/**
 * A contract's station_status, both versions, spliced the same way: false when out of range, else
 * true, the feeds handed to `add`, their stations' places written into `minute` and the digests
 * of their entries rendered again into `digests`.
 */
export function spliceStatus(
  contract: Contract,
  group: readonly number[],
  splice: StatusSplice,
): boolean {
  const { stations, fresh, lives, published, state, minute, digests } = splice;
  const types = vehicleTypesOf(contract);
  const feeds = published.statusFeeds.get(contract.name);
  let newest: string | null = null;
  const renderedEntries = new Map<number, readonly Uint8Array[]>();
  for (const index of group) {
    const lastUpdate = lastUpdateAt(minute.states, index);
    // Published form `YYYY-MM-DDTHH:MM:SSZ`, all UTC: text order is time order.
    if (lastUpdate && (newest === null || lastUpdate > newest)) newest = lastUpdate;
    if (fresh[index]) {
      const station = stations.station(index);
      renderedEntries.set(index, stationStatusEntries(station, lives.get(index), types));
    }
  }
  // In a contract's feed its stations are neighbours in group order: every run is one slice.
  const runs = GBFS_VERSIONS.map((_, version) => {
    const bytes = feeds?.[version];
    const starts = state.statusStarts[version] ?? [];
    // The new sizes, written where the minute state keeps them: only this contract's stations'
    // (no copy of the 100,000 for each contract); an unchanged station keeps its size.
    const sizes = minute.statusSizes[version] as Int32Array;
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
  // The digests of the entries rendered again, then this contract's column of each version.
  digests.forEach((all, version) => {
    for (const [index, rendering] of renderedEntries)
      putDigest(all, index, rendering[version] as Uint8Array);
  });
  const columns = digests.map((all) => gatherDigests(all, group));
  const updated = statusUpdated(splice.statusAt, newest);
  const files = gbfsStatusFiles(contract.name, entries, columns, updated, splice.refreshSeconds);
  for (const [path, file] of files) splice.add(path, file);
  GBFS_VERSIONS.forEach((version, versionIndex) => {
    locateEntries(
      files.get(pathOfStatus(contract.name, version)),
      items[versionIndex] as Items,
      group,
      fresh,
      state.statusStarts[versionIndex] ?? [],
      minute.statusStarts[versionIndex] as Float64Array,
    );
  });
  return true;
}

/**
 * Where each station's entry starts in a new station_status file (its size is already kept): each
 * item found in its body by identity; a station inside a run keeps its distance from the run's first.
 */
function locateEntries(
  file: ReleaseFile | undefined,
  list: Items,
  group: readonly number[],
  fresh: readonly boolean[],
  oldStarts: ArrayLike<number>,
  starts: Float64Array,
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
    starts[index] = fresh[index] ? runStart : runStart + ((oldStarts[index] ?? 0) - runOldStart);
  }
}
