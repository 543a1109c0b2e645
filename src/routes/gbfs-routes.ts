// The GBFS rows of the route table: every contract as a GBFS system, v2.3 and v3.0, at the URLs of
// the original operator (`/contracts/{contract}/gbfs/…`), plus the network's manifest. All public.
import { JSON_TYPE } from "./content-types.js";
import type { RowsOf } from "./route.js";

/** The feeds that change only with the source; discovery files and station_status have rows of their own. */
export const GBFS_STATIC_FEEDS = [
  "gbfs_versions",
  "system_information",
  "vehicle_types",
  "station_information",
] as const;
export type GbfsStaticFeed = (typeof GBFS_STATIC_FEEDS)[number];

/**
 * v2.3 answers at two forms that real apps call: `gbfs/{feed}.json` (what the discovery file lists)
 * and `gbfs/v2/{feed}.json`, both files of the tree with the same bytes; its discovery file too
 * (`gbfs/v2/gbfs.json`, beside v3's `gbfs/v3/gbfs.json`: where a consumer looks by symmetry).
 */
export type GbfsEndpoint =
  | { name: "gbfsDiscoveryV2"; contract: string }
  | { name: "gbfsStatusV2"; contract: string }
  | { name: "gbfsFeedV2"; contract: string; feed: GbfsStaticFeed }
  | { name: "gbfsDiscoveryV2Folder"; contract: string }
  | { name: "gbfsStatusV2Folder"; contract: string }
  | { name: "gbfsFeedV2Folder"; contract: string; feed: GbfsStaticFeed }
  | { name: "gbfsDiscoveryV3"; contract: string }
  | { name: "gbfsStatusV3"; contract: string }
  | { name: "gbfsFeedV3"; contract: string; feed: GbfsStaticFeed }
  | { name: "gbfsManifest" };

const contract = { kind: "contract" } as const;
const feed = { kind: "oneOf", values: GBFS_STATIC_FEEDS } as const;
const common = {
  tag: "gbfs",
  access: "public",
  served: "release",
  contentType: JSON_TYPE,
} as const;

// Literal paths before `{feed}.json`: OpenAPI readers try rows in document order.
export const GBFS_ROUTES = {
  gbfsDiscoveryV2: {
    ...common,
    name: "gbfsDiscoveryV2",
    summary: "GBFS v2.3 discovery file of a contract (feeds keyed by its main language)",
    path: "/contracts/{contract}/gbfs/gbfs.json",
    params: { contract },
    freshness: "static",
    role: "discovery",
    gbfsVersion: "2.3",
  },
  gbfsStatusV2: {
    ...common,
    name: "gbfsStatusV2",
    summary: "GBFS v2.3 station_status of a contract",
    path: "/contracts/{contract}/gbfs/station_status.json",
    params: { contract },
    freshness: "dynamic",
    gbfsVersion: "2.3",
  },
  gbfsFeedV2: {
    ...common,
    name: "gbfsFeedV2",
    summary: "GBFS v2.3 {feed} of a contract",
    path: "/contracts/{contract}/gbfs/{feed}.json",
    params: { contract, feed },
    freshness: "static",
    gbfsVersion: "2.3",
  },
  gbfsDiscoveryV2Folder: {
    ...common,
    name: "gbfsDiscoveryV2Folder",
    summary:
      "GBFS v2.3 discovery file of a contract (v2 folder form; it names the feeds' first form)",
    path: "/contracts/{contract}/gbfs/v2/gbfs.json",
    params: { contract },
    freshness: "static",
    role: "discovery",
    gbfsVersion: "2.3",
  },
  gbfsStatusV2Folder: {
    ...common,
    name: "gbfsStatusV2Folder",
    summary: "GBFS v2.3 station_status of a contract (v2 folder form)",
    path: "/contracts/{contract}/gbfs/v2/station_status.json",
    params: { contract },
    freshness: "dynamic",
    gbfsVersion: "2.3",
  },
  gbfsFeedV2Folder: {
    ...common,
    name: "gbfsFeedV2Folder",
    summary: "GBFS v2.3 {feed} of a contract (v2 folder form)",
    path: "/contracts/{contract}/gbfs/v2/{feed}.json",
    params: { contract, feed },
    freshness: "static",
    gbfsVersion: "2.3",
  },
  gbfsDiscoveryV3: {
    ...common,
    name: "gbfsDiscoveryV3",
    summary: "GBFS v3.0 discovery file of a contract",
    path: "/contracts/{contract}/gbfs/v3/gbfs.json",
    params: { contract },
    freshness: "static",
    role: "discovery",
    gbfsVersion: "3.0",
  },
  gbfsStatusV3: {
    ...common,
    name: "gbfsStatusV3",
    summary: "GBFS v3.0 station_status of a contract",
    path: "/contracts/{contract}/gbfs/v3/station_status.json",
    params: { contract },
    freshness: "dynamic",
    gbfsVersion: "3.0",
  },
  gbfsFeedV3: {
    ...common,
    name: "gbfsFeedV3",
    summary: "GBFS v3.0 {feed} of a contract",
    path: "/contracts/{contract}/gbfs/v3/{feed}.json",
    params: { contract, feed },
    freshness: "static",
    gbfsVersion: "3.0",
  },
  gbfsManifest: {
    ...common,
    name: "gbfsManifest",
    summary: "GBFS v3.0 manifest: the discovery files of every contract",
    path: "/gbfs/manifest.json",
    params: {},
    freshness: "static",
    role: "discovery",
    gbfsVersion: "3.0",
  },
} satisfies RowsOf<GbfsEndpoint>;
