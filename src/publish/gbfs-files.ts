// The GBFS files of a release: which answers each rendered feed is (from the route table), and the
// absolute URLs the discovery files name (the table's paths under the public base URL).
import type { Station } from "../model/station.js";
import { publishedTime } from "../published-time.js";
import { type Endpoint, pathOf } from "../routes/routes.js";
import type { Dataset, LiveState } from "../source/dataset.js";
import { type Encode, encodedTogether } from "./encoded-together.js";
import { groupByContract } from "./group.js";
import { endpointFile, type ReleaseFile } from "./release.js";
import { type GbfsRendered, renderGbfsStatic } from "./render/gbfs/contract-feeds.js";
import { renderManifest } from "./render/gbfs/discovery.js";
import {
  type Freshness,
  GBFS_VERSIONS,
  type GbfsFeedName,
  type GbfsUrls,
  type GbfsVersion,
} from "./render/gbfs/feed.js";
import { NEVER_REPORTED_AT, stationStatusBody } from "./render/gbfs/station-status.js";
import type { VehicleType } from "./render/gbfs/vehicle-types.js";
import { encodeJson } from "./render/json-body.js";
import { stationStatusEntryJson } from "./render/station-json.js";
import { type DigestColumn, statusTag } from "./status-tag.js";

type Files = Map<string, ReleaseFile>;

/**
 * Where one GBFS file answers. The first endpoint is the one discovery files name; v2.3 files (its
 * discovery file too) also answer under `gbfs/v2/`, the same bytes as a second file of the tree, so
 * a static host serves both.
 */
export function gbfsEndpoints(
  contract: string,
  version: GbfsVersion,
  feed: GbfsFeedName,
): [Endpoint, ...Endpoint[]] {
  if (version === "3.0") {
    if (feed === "gbfs") return [{ name: "gbfsDiscoveryV3", contract }];
    if (feed === "station_status") return [{ name: "gbfsStatusV3", contract }];
    return [{ name: "gbfsFeedV3", contract, feed }];
  }
  if (feed === "gbfs")
    return [
      { name: "gbfsDiscoveryV2", contract },
      { name: "gbfsDiscoveryV2Folder", contract },
    ];
  if (feed === "station_status")
    return [
      { name: "gbfsStatusV2", contract },
      { name: "gbfsStatusV2Folder", contract },
    ];
  return [
    { name: "gbfsFeedV2", contract, feed },
    { name: "gbfsFeedV2Folder", contract, feed },
  ];
}

/** Absolute URLs: discovery files and the manifest must name them so (GBFS requires it). */
export function gbfsUrls(baseUrl: string): GbfsUrls {
  const base = baseUrl.replace(/\/+$/, "");
  const url = (endpoint: Endpoint) => `${base}${pathOf(endpoint)}`;
  return {
    feed: (contract, version, feed) => url(gbfsEndpoints(contract, version, feed)[0]),
    manifest: () => url({ name: "gbfsManifest" }),
  };
}

/**
 * Every file that changes only with the source (all but station_status), and the manifest;
 * `encode` makes the feeds' bytes (see encoded-together.ts). `ttl`: the refresh period, as
 * station_status's: they are kept no longer than it (keptAs, in max-age.ts, which Cache-Control
 * follows).
 */
export function gbfsStaticFiles(
  dataset: Dataset,
  urls: GbfsUrls,
  updatedAt: Date,
  ttl: number,
  encode: Encode = encodedTogether,
): Files {
  const freshness: Freshness = { lastUpdated: updatedAt, ttl };
  const files: Files = new Map();
  const stations = groupByContract(dataset.stations);
  for (const contract of dataset.contracts) {
    const own = stations.get(contract.name) ?? [];
    putRendered(files, contract.name, renderGbfsStatic(contract, own, freshness, urls), encode);
  }
  const manifest: Endpoint = { name: "gbfsManifest" };
  files.set(
    pathOf(manifest),
    endpointFile(manifest, [encodeJson(renderManifest(dataset.contracts, freshness, urls))]),
  );
  return files;
}

/**
 * station_status of one contract, both versions, at every path it answers at. `entries`: each
 * station's encoded entry per version (GBFS_VERSIONS order, see stationStatusEntries), in source
 * order, or runs of them as published, commas inside (a cron refresh's splice); `digests`: per
 * version, the digest of each station's entry, in that order (see status-tag.ts). `ttl`: seconds
 * to the next refresh. Its `last_updated` is `updated` (published form, see statusUpdated); never
 * the clock, so that the same states always give the same bytes (and ETag).
 */
export function gbfsStatusFiles(
  contract: string,
  entries: readonly (readonly Uint8Array[])[],
  digests: readonly DigestColumn[],
  updated: string | null,
  ttl: number,
): Files {
  const freshness: Freshness = {
    lastUpdated: updated === null ? NEVER_REPORTED_AT : new Date(updated),
    ttl,
  };
  const files: Files = new Map();
  GBFS_VERSIONS.forEach((version, index) => {
    const own = entries.map((station) => station[index] as Uint8Array);
    const body = stationStatusBody(version, freshness, own);
    // Its own bytes around the entries: the first chunk and the last.
    const head = body[0] as Uint8Array;
    const tail = body[body.length - 1] as Uint8Array;
    const tag = statusTag(head, digests[index] as DigestColumn, tail);
    putFile(files, contract, version, "station_status", body, tag);
  });
  return files;
}

/**
 * A station_status feed's `last_updated` (published form): when the publisher knew its states
 * (`statusAt`, the states file's time), but never before the newest report it publishes (a file
 * copied with its old time kept, `cp -p`), which a feed says itself when no file time is known;
 * and never after `now`. A station whose clock runs ahead reports from the future (accepted up to
 * a day ahead, with a warning): its feed dated so would be taken as fresh until then, and every
 * other station of it as silent since.
 */
export function statusUpdated(
  statusAt: string | null | undefined,
  newest: string | null,
  now: string = publishedTime(new Date()),
): string | null {
  // Published form, all UTC: text order is time order.
  const reported = newest !== null && newest > now ? now : newest;
  if (!statusAt) return reported;
  return reported !== null && reported > statusAt ? reported : statusAt;
}

/** One station's station_status entry, encoded, in each version (GBFS_VERSIONS order). */
export function stationStatusEntries(
  station: Station,
  state: LiveState | undefined,
  types: readonly VehicleType[],
): Uint8Array[] {
  return stationStatusTexts(station, state, types).map((text) => Buffer.from(text));
}

/** stationStatusEntries as text, for a caller that encodes them with other answers (encodedTogether). */
export function stationStatusTexts(
  station: Station,
  state: LiveState | undefined,
  types: readonly VehicleType[],
): string[] {
  return GBFS_VERSIONS.map((version) => stationStatusEntryJson(station, state, types, version));
}

function putRendered(
  files: Files,
  contract: string,
  rendered: readonly GbfsRendered[],
  encode: Encode,
): void {
  for (const { version, feed, body } of rendered)
    putFile(files, contract, version, feed, encode([JSON.stringify(body)]));
}

function putFile(
  files: Files,
  contract: string,
  version: GbfsVersion,
  feed: GbfsFeedName,
  body: readonly Uint8Array[],
  tag?: string,
): void {
  const endpoints = gbfsEndpoints(contract, version, feed);
  // One file for every path: the aliases share its bytes and ETag.
  const file = endpointFile(endpoints[0], body, tag);
  for (const endpoint of endpoints) files.set(pathOf(endpoint), file);
}
