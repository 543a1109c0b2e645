// The portal's links to what other parts publish (OpenAPI, v1, GBFS), read from the route table.
import { pathOf } from "../../../routes/routes.js";
import type { PortalPaths } from "./build-portal-input.js";
import { keyedRequest, type PortalEndpoint } from "./portal-input.js";

/** What the portal links to, from the rows of this route table. */
export function portalPaths(): PortalPaths {
  return {
    openapi: pathOf({ name: "openapi" }),
    endpoints: v1Endpoints,
    // The discovery files, and the v3.0 feeds the page draws its map and live totals from.
    gbfs: (contract) => ({
      discovery: pathOf({ name: "gbfsDiscoveryV2", contract }),
      discoveryV3: pathOf({ name: "gbfsDiscoveryV3", contract }),
      stationInformation: pathOf({ name: "gbfsFeedV3", contract, feed: "station_information" }),
      stationStatus: pathOf({ name: "gbfsStatusV3", contract }),
    }),
    gbfsManifest: pathOf({ name: "gbfsManifest" }),
  };
}

/** The legacy v1 surface, spelled like the specification's v1 requests. */
function v1Endpoints(example: { contract: string; station: number }): PortalEndpoint[] {
  const { contract, station } = example;
  return [
    {
      title: "v1: list contracts",
      request: keyedRequest({ name: "contractsV1" }),
      keyed: true,
      description: "The legacy v1 surface, for clients written for it: the same data, v1 fields.",
    },
    {
      title: "v1: stations of a contract",
      request: keyedRequest({ name: "contractStationsV1", contract }),
      keyed: true,
      description: "Every station of the contract, v1 fields (flat bikes and stands).",
    },
    {
      title: "v1: one station",
      request: keyedRequest({ name: "stationV1", contract, number: station }),
      keyed: true,
      description: "One station by its number within the contract, v1 fields.",
    },
  ];
}
