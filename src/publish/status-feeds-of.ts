// The station_status feeds a server's refreshes assemble (statusFeed), made at start from a build's
// cache: the first refresh then copies runs of unchanged entries too, as every later one does.
import { pathOf } from "../routes/routes.js";
import type { Dataset } from "../source/dataset.js";
import { gbfsEndpoints } from "./gbfs-files.js";
import { GBFS_VERSIONS } from "./render/gbfs/feed.js";
import { membersOf, type RenderedStation, type StationCache } from "./station-files.js";
import type { StatusFeed } from "./status-feed.js";

/**
 * `cache` with each contract's feeds: its station_status bodies joined, each entry located by
 * identity. A contract whose entries are not found so keeps them (its next feed is made of them).
 */
export function withStatusFeeds(cache: StationCache, dataset: Dataset): StationCache {
  const rendered = cache.inOrder?.of === dataset.stations ? cache.inOrder.rendered : undefined;
  if (!rendered) return cache;
  const statusFeeds = new Map(cache.statusFeeds);
  for (const contract of dataset.contracts) {
    if (statusFeeds.has(contract.name)) continue;
    const members = membersOf(dataset.stations).get(contract.name) ?? [];
    const files = cache.gbfsStatus.get(contract.name);
    const feeds = GBFS_VERSIONS.map((version, index) => {
      const path = pathOf(gbfsEndpoints(contract.name, version, "station_status")[0]);
      const body = files?.get(path)?.body;
      const entry = (position: number) =>
        (rendered[members[position] as number] as RenderedStation | undefined)?.status?.[index];
      return body && located(body, members.length, entry);
    });
    if (feeds.every((feed) => feed !== undefined)) statusFeeds.set(contract.name, feeds);
  }
  // Descriptors, not a spread: the cache's by-key index is a getter, made only when read.
  return Object.defineProperties(
    {},
    {
      ...Object.getOwnPropertyDescriptors(cache),
      statusFeeds: { value: statusFeeds, enumerable: true },
    },
  ) as StationCache;
}

/** The body joined, with where each entry's chunk is in it; undefined when one is not found. */
function located(
  body: readonly Uint8Array[],
  count: number,
  entry: (position: number) => Uint8Array | undefined,
): StatusFeed | undefined {
  const starts = new Uint32Array(count);
  const ends = new Uint32Array(count);
  let position = 0;
  let at = 0;
  for (const chunk of body) {
    if (position < count && chunk === entry(position)) {
      starts[position] = at;
      ends[position] = at + chunk.byteLength;
      position++;
    }
    at += chunk.byteLength;
  }
  if (position !== count) return undefined;
  return { bytes: Buffer.concat(body, at), starts, ends };
}
