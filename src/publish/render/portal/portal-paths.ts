// The portal's links to what other parts publish (OpenAPI, v1, GBFS), read from the route table:
// a surface shows on the page as soon as its rows are in the table, with no edit here.
import { fillPattern } from "../../../routes/pattern.js";
import type { AnyRoute } from "../../../routes/route.js";
import { type Endpoint, pathOf, ROUTE_LIST } from "../../../routes/routes.js";
import type { PortalPaths } from "./build-portal-input.js";
import { KEY_PLACEHOLDER, type PortalEndpoint } from "./portal-input.js";

/**
 * The GBFS rows the portal links to, by endpoint name: the discovery files (v2.3 and v3.0), the
 * v3.0 feeds (the page reads `station_status` for its live totals) and the network's manifest.
 * Looked up by name so that the portal needs no change when the GBFS rows land.
 */
export const GBFS_ROUTES = {
  discovery: "gbfsDiscovery",
  discoveryV3: "gbfsDiscoveryV3",
  feedV3: "gbfsFeedV3",
  manifest: "gbfsManifest",
} as const;

const rowNamed = (name: string): AnyRoute | undefined =>
  ROUTE_LIST.find((route) => route.name === name);

/** What the portal links to, from the rows of this route table. */
export function portalPaths(): PortalPaths {
  return { openapi: pathOf({ name: "openapi" }), endpoints: v1Endpoints, ...gbfsPaths() };
}

function gbfsPaths(): Pick<PortalPaths, "gbfs" | "gbfsManifest"> {
  const discovery = rowNamed(GBFS_ROUTES.discovery);
  const discoveryV3 = rowNamed(GBFS_ROUTES.discoveryV3);
  const feedV3 = rowNamed(GBFS_ROUTES.feedV3);
  const manifest = rowNamed(GBFS_ROUTES.manifest);
  const paths: Pick<PortalPaths, "gbfs" | "gbfsManifest"> = {};
  if (discovery && discoveryV3 && feedV3) {
    // The feed row may name its feed in the path (`…/v3/station_status.json`) or take it as a
    // parameter (`…/v3/{feed}.json`): extra values are ignored by fillPattern.
    paths.gbfs = (contract) => ({
      discovery: fillPattern(discovery.path, { contract }),
      discoveryV3: fillPattern(discoveryV3.path, { contract }),
      stationStatus: fillPattern(feedV3.path, { contract, feed: "station_status" }),
    });
  }
  if (manifest) paths.gbfsManifest = fillPattern(manifest.path, {});
  return paths;
}

/** The legacy v1 surface, spelled like the specification's v1 requests. */
function v1Endpoints(example: { contract: string; station: number }): PortalEndpoint[] {
  const keyed = (endpoint: Endpoint, query = ""): string =>
    `${pathOf(endpoint)}?${query}apiKey=${KEY_PLACEHOLDER}`;
  const inContract = `contract=${encodeURIComponent(example.contract)}&`;
  return [
    {
      title: "v1: list contracts",
      request: keyed({ name: "contractsV1" }),
      keyed: true,
      description: "The legacy v1 surface, for clients written for it: the same data, v1 fields.",
    },
    {
      title: "v1: stations of a contract",
      request: keyed({ name: "stationsV1" }, inContract),
      keyed: true,
      description: "Every station of the contract, v1 fields (flat bikes and stands).",
    },
    {
      title: "v1: one station",
      request: `${pathOf({ name: "stationsV1" })}/${example.station}?${inContract}apiKey=${KEY_PLACEHOLDER}`,
      keyed: true,
      description: "One station by its number within the contract, v1 fields.",
    },
  ];
}
