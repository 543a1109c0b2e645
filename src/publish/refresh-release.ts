// A server's minute refresh (pure): the release it serves with only the changed station answers
// replaced, every other file (static or not, with its compressed variants) kept as it is.
import type { Dataset } from "../source/dataset.js";
import type { Published } from "./publish.js";
import { makeRelease, type Release, type ReleaseFile } from "./release.js";
import { renderStationChanges, type StationCache } from "./station-files.js";

export interface RefreshedRelease extends Published {
  /** The answers that differ from `served`'s. */
  changed: ReadonlyMap<string, ReleaseFile>;
}

/**
 * `served` and `cache` come from the same publish (or refresh) of `dataset`'s static data; when
 * `cache` was made for other stations, undefined: publish the whole release instead.
 */
export function refreshRelease(
  served: Release,
  dataset: Dataset,
  cache: StationCache,
  options: { generatedAt: Date; refreshSeconds: number },
): RefreshedRelease | undefined {
  if (cache.inOrder?.of !== dataset.stations) return undefined;
  const { changed, cache: next } = renderStationChanges(dataset, cache, options.refreshSeconds);
  // One copy of the served index; the changed answers come without variants until they are made.
  const files = new Map(served.files);
  for (const [path, file] of changed) files.set(path, file);
  const release = makeRelease(files, served.counts, options.generatedAt, [
    ...served.contracts.values(),
  ]);
  return { release, cache: next, changed };
}
