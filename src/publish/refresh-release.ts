// A server's minute refresh (pure): the release it serves with only the changed station answers
// replaced, every other file (static or not, with its compressed variants) kept as it is.
import type { Dataset } from "../source/dataset.js";
import type { ListLayout } from "./list-layout.js";
import type { Published } from "./publish.js";
import { makeRelease, type Release, type ReleaseFile, replaceFiles } from "./release.js";
import { renderStationChanges, type StationCache, stationListLayouts } from "./station-files.js";

export interface RefreshedRelease extends Published {
  /** The answers that differ from `served`'s. */
  changed: ReadonlyMap<string, ReleaseFile>;
  /** How its lists of all stations are made of its contracts' lists, when they are. */
  lists?: readonly ListLayout[];
}

/**
 * `served` and `cache` come from the same publish (or refresh) of `dataset`'s static data; when
 * `cache` was made for other stations, undefined: publish the whole release instead. The work is
 * done in steps with `pause` awaited between two (default: none), so that a server keeps answering.
 */
export async function refreshRelease(
  served: Release,
  dataset: Dataset,
  cache: StationCache,
  options: { generatedAt: Date; refreshSeconds: number; pause?: () => Promise<void> },
): Promise<RefreshedRelease | undefined> {
  if (cache.inOrder?.of !== dataset.stations) return undefined;
  const pause = options.pause ?? (async () => {});
  const { changed, cache: next } = await renderStationChanges(
    dataset,
    cache,
    options.refreshSeconds,
    pause,
  );
  // An answer rendered again with the bytes it had (a station's v1 answer when only `connected`
  // changed) stays the served file, with its variants: remade at the refresh's level, they would
  // be other bytes under the same ETag.
  for (const [path, file] of changed)
    if (served.files.get(path)?.etag === file.etag) changed.delete(path);
  await pause();
  // The changed answers come without variants until they are made. The same stations give the
  // same paths: the served release's index is shared, not copied.
  const release =
    replaceFiles(served, changed, options.generatedAt) ??
    copied(served, changed, options.generatedAt);
  const lists = stationListLayouts(dataset.stations);
  return { release, cache: next, changed, ...(lists ? { lists } : {}) };
}

/** A release `served` was not made for (other paths): a new index. */
function copied(
  served: Release,
  changed: ReadonlyMap<string, ReleaseFile>,
  generatedAt: Date,
): Release {
  const files = new Map(served.files);
  for (const [path, file] of changed) files.set(path, file);
  const contracts = [...served.contracts.values()];
  const { counts, baseUrl, refreshSeconds } = served;
  return makeRelease(files, counts, generatedAt, contracts, baseUrl, refreshSeconds);
}
