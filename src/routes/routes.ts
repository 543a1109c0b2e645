// The route table: one row per answer (URL pattern, typed parameters, access, freshness, schema,
// statuses). Path building, request matching, keys, caching, the tree and OpenAPI all read it.
import { z } from "zod";
import { ContractV3, ParkingV1, StaticStation, StationV3 } from "../model/api.js";
import { ContractV1, StationV1 } from "../model/api-v1.js";
import { NOT_OK_WHEN, ServerStatus } from "../model/server-status.js";
import {
  CSV_TYPE,
  HTML_TYPE,
  JSON_TYPE,
  SCRIPT_TYPE,
  STYLE_TYPE,
  TEXT_TYPE,
  ZIP_TYPE,
} from "./content-types.js";
import { GBFS_ROUTES, type GbfsEndpoint } from "./gbfs-routes.js";
import { NO_CONTRACT, NO_PARKING_API, NO_STATION } from "./outcomes.js";
import { fillPattern } from "./pattern.js";
import type { AnyRoute, Route } from "./route.js";

// Its own module: the trust test's worker needs it without the route table and its schemas.
export { fileOf } from "./file-of.js";

export type { Access, Freshness } from "./route.js";

export type Endpoint =
  | { name: "contracts" }
  | { name: "stations" }
  | { name: "contractStations"; contract: string }
  | { name: "station"; contract: string; number: number }
  | { name: "contractsV1" }
  | { name: "stationsV1" }
  | { name: "contractStationsV1"; contract: string }
  | { name: "stationV1"; contract: string; number: number }
  | { name: "parks"; contract: string }
  | { name: "park"; contract: string; number: number }
  | { name: "staticStations"; contract: string }
  | { name: "staticStationsCsv"; contract: string }
  | { name: "bundle" }
  | { name: "openapi" }
  | { name: "portal" }
  | { name: "portalScript" }
  | { name: "portalStyle" }
  | { name: "portalIcon" }
  | { name: "docs" }
  | { name: "docsScript" }
  | { name: "docsStyle" }
  | { name: "swaggerScript" }
  | { name: "swaggerStyle" }
  | { name: "swaggerLicense" }
  | { name: "swaggerNotices" }
  | { name: "status" }
  | GbfsEndpoint;

export type EndpointName = Endpoint["name"];
export type RouteTable = { readonly [N in EndpointName]: Route<Extract<Endpoint, { name: N }>> };

export * from "./content-types.js";

export const BUNDLE_NAME = "velodata-static.zip";

const contract = { kind: "contract" } as const;
const stationNumber = { kind: "number", what: "station number" } as const;
const parkNumber = { kind: "number", what: "park number" } as const;

const V3 = {
  contracts: {
    name: "contracts",
    summary: "All contracts",
    tag: "v3",
    path: "/vls/v3/contracts",
    params: {},
    access: "key",
    freshness: "static",
    served: "release",
    contentType: JSON_TYPE,
    role: "list",
    schema: z.array(ContractV3),
  },
  stations: {
    name: "stations",
    summary: "All stations of every contract",
    tag: "v3",
    path: "/vls/v3/stations",
    params: {},
    access: "key",
    freshness: "dynamic",
    served: "release",
    contentType: JSON_TYPE,
    role: "list",
    schema: z.array(StationV3),
  },
  contractStations: {
    name: "contractStations",
    summary: "the stations of one contract",
    tag: "v3",
    // Contract names start with a letter, so this path form never reads as a station number.
    path: "/vls/v3/stations/{contract}",
    params: { contract },
    query: { path: "/vls/v3/stations", params: ["contract"] },
    access: "key",
    freshness: "dynamic",
    served: "release",
    contentType: JSON_TYPE,
    role: "list",
    schema: z.array(StationV3),
    unknownContract: NO_CONTRACT,
  },
  station: {
    name: "station",
    summary: "One station",
    tag: "v3",
    path: "/vls/v3/stations/{contract}/{number}",
    params: { contract, number: stationNumber },
    query: { path: "/vls/v3/stations/{number}", params: ["contract"] },
    access: "key",
    freshness: "dynamic",
    served: "release",
    contentType: JSON_TYPE,
    schema: StationV3,
    unknownContract: NO_STATION,
    notFound: NO_STATION,
  },
} satisfies Pick<RouteTable, "contracts" | "stations" | "contractStations" | "station">;

/** The legacy v1 answers: the same rules as v3's, under `/vls/v1`, with v1 bodies. */
const V1 = {
  contractsV1: {
    ...V3.contracts,
    name: "contractsV1",
    tag: "v1",
    path: "/vls/v1/contracts",
    schema: z.array(ContractV1),
  },
  stationsV1: {
    ...V3.stations,
    name: "stationsV1",
    tag: "v1",
    path: "/vls/v1/stations",
    schema: z.array(StationV1),
  },
  contractStationsV1: {
    ...V3.contractStations,
    name: "contractStationsV1",
    tag: "v1",
    path: "/vls/v1/stations/{contract}",
    query: { path: "/vls/v1/stations", params: ["contract"] },
    schema: z.array(StationV1),
  },
  stationV1: {
    ...V3.station,
    name: "stationV1",
    tag: "v1",
    path: "/vls/v1/stations/{contract}/{number}",
    query: { path: "/vls/v1/stations/{number}", params: ["contract"] },
    schema: StationV1,
  },
} satisfies Pick<RouteTable, "contractsV1" | "stationsV1" | "contractStationsV1" | "stationV1">;

/** The portal for people and the browsable API reference: public static files, as a static host serves them. */
const portalFile = {
  params: {},
  tag: "portal",
  access: "public",
  freshness: "static",
  served: "release",
} as const;

const PORTAL = {
  // A page that links to every discovery file: it goes up after them (role discovery).
  portal: {
    ...portalFile,
    name: "portal",
    summary: "The portal page: what the service is, its contracts, endpoints, downloads, feeds",
    path: "/",
    contentType: HTML_TYPE,
    role: "discovery",
  },
  portalScript: {
    ...portalFile,
    name: "portalScript",
    summary: "The portal page's script (live totals, map colours)",
    path: "/portal/portal.js",
    contentType: SCRIPT_TYPE,
  },
  portalStyle: {
    ...portalFile,
    name: "portalStyle",
    summary: "The portal page's stylesheet",
    path: "/portal/portal.css",
    contentType: STYLE_TYPE,
  },
  portalIcon: {
    ...portalFile,
    name: "portalIcon",
    summary: "The portal's icon",
    path: "/portal/icon.svg",
    contentType: "image/svg+xml",
  },
  docs: {
    ...portalFile,
    name: "docs",
    summary: "The API reference: this document rendered by Swagger UI, bundled in the tree",
    path: "/docs/",
    contentType: HTML_TYPE,
    // A page that loads its script, its styles and this document: it goes up after them.
    role: "list",
  },
  docsScript: {
    ...portalFile,
    name: "docsScript",
    summary: "The API reference page's script (starts Swagger UI on the OpenAPI document)",
    path: "/docs/docs.js",
    contentType: SCRIPT_TYPE,
  },
  docsStyle: {
    ...portalFile,
    name: "docsStyle",
    summary: "The API reference page's stylesheet, over Swagger UI's (contrast to WCAG 2.1 AA)",
    path: "/docs/docs.css",
    contentType: STYLE_TYPE,
  },
  swaggerScript: {
    ...portalFile,
    name: "swaggerScript",
    summary: "Swagger UI, bundled (swagger-ui-dist)",
    path: "/docs/swagger-ui-bundle.js",
    contentType: SCRIPT_TYPE,
  },
  swaggerStyle: {
    ...portalFile,
    name: "swaggerStyle",
    summary: "Swagger UI's stylesheet",
    path: "/docs/swagger-ui.css",
    contentType: STYLE_TYPE,
  },
  swaggerLicense: {
    ...portalFile,
    name: "swaggerLicense",
    summary: "Swagger UI's licence",
    path: "/docs/LICENSE.txt",
    contentType: TEXT_TYPE,
  },
  swaggerNotices: {
    ...portalFile,
    name: "swaggerNotices",
    summary: "Licences of the libraries inside the Swagger UI bundle",
    path: "/docs/swagger-ui-bundle.js.LICENSE.txt",
    contentType: TEXT_TYPE,
  },
} satisfies Pick<
  RouteTable,
  | "portal"
  | "portalScript"
  | "portalStyle"
  | "portalIcon"
  | "docs"
  | "docsScript"
  | "docsStyle"
  | "swaggerScript"
  | "swaggerStyle"
  | "swaggerLicense"
  | "swaggerNotices"
>;

/** The endpoints of the portal's files, in the order the renderer gives them. */
export type PortalFileName = keyof typeof PORTAL;

/** In matching order: the first row whose pattern fits a request answers it. */
export const ROUTES: RouteTable = {
  ...V3,
  ...V1,
  parks: {
    name: "parks",
    summary: "The parkings of a contract",
    tag: "parking",
    path: "/parking/v1/contracts/{contract}/parks",
    params: { contract },
    access: "key",
    freshness: "static",
    served: "release",
    contentType: JSON_TYPE,
    role: "list",
    schema: z.array(ParkingV1),
    unknownContract: NO_CONTRACT,
    contractNeeds: { feature: "parkingApi", outcome: NO_PARKING_API },
  },
  park: {
    name: "park",
    summary: "One parking",
    tag: "parking",
    path: "/parking/v1/contracts/{contract}/parks/{number}",
    params: { contract, number: parkNumber },
    access: "key",
    freshness: "static",
    served: "release",
    contentType: JSON_TYPE,
    schema: ParkingV1,
  },
  // Where the original service offered its downloads (…/rest/vls/stations/Dublin.json).
  staticStations: {
    name: "staticStations",
    summary: "Static stations of a contract (number, name, address, latitude, longitude)",
    tag: "downloads",
    path: "/rest/vls/stations/{contract}.json",
    params: { contract },
    access: "public",
    freshness: "static",
    served: "release",
    contentType: JSON_TYPE,
    schema: z.array(StaticStation),
  },
  staticStationsCsv: {
    name: "staticStationsCsv",
    summary: "Static stations of a contract, as CSV",
    tag: "downloads",
    path: "/rest/vls/stations/{contract}.csv",
    params: { contract },
    access: "public",
    freshness: "static",
    served: "release",
    contentType: CSV_TYPE,
  },
  bundle: {
    name: "bundle",
    summary: "The static bundle: contracts, stations, parkings as JSON and CSV, datapackage.json",
    tag: "downloads",
    path: `/download/${BUNDLE_NAME}`,
    params: {},
    access: "public",
    freshness: "static",
    served: "release",
    contentType: ZIP_TYPE,
    attachment: BUNDLE_NAME,
  },
  openapi: {
    name: "openapi",
    summary: "This OpenAPI 3.1 document",
    tag: "meta",
    path: "/openapi.json",
    params: {},
    access: "public",
    freshness: "static",
    served: "release",
    contentType: JSON_TYPE,
    schema: z.record(z.string(), z.unknown()),
  },
  ...PORTAL,
  status: {
    name: "status",
    summary: "The server's status, for operators",
    tag: "meta",
    path: "/status",
    params: {},
    access: "public",
    freshness: "dynamic",
    served: "server",
    contentType: JSON_TYPE,
    schema: ServerStatus,
    // For a monitoring check that reads only the status code.
    alsoAs: {
      status: 503,
      meaning: `The same document when \`ok\` is false: ${NOT_OK_WHEN}`,
    },
    wholeForOperators: true,
  },
  ...GBFS_ROUTES,
};

/** Every row, in matching order. */
export const ROUTE_LIST = Object.values(ROUTES) as readonly AnyRoute[];

export function routeOf(endpoint: Endpoint): AnyRoute {
  return ROUTES[endpoint.name] as AnyRoute;
}

export const accessOf = (endpoint: Endpoint) => routeOf(endpoint).access;

/** The Content-Disposition a route's answer is sent with; undefined for one to show, not save. */
export const dispositionOf = (route: AnyRoute): string | undefined =>
  route.attachment === undefined ? undefined : `attachment; filename="${route.attachment}"`;

/**
 * The request as the specification spells it: the row's query form when it has one
 * (`/vls/v3/stations/42?contract=dublin`), its path form otherwise.
 */
export function requestOf(endpoint: Endpoint): string {
  const { query } = routeOf(endpoint);
  if (!query) return pathOf(endpoint);
  const values = endpoint as unknown as Readonly<Record<string, unknown>>;
  const pairs = query.params.map((name) => `${name}=${encodeURIComponent(String(values[name]))}`);
  return `${fillPattern(query.path, values)}?${pairs.join("&")}`;
}

/**
 * The canonical URL path of an endpoint's answer: its row's path form filled in. The query forms
 * of the specification (`/vls/v3/stations?contract=C`) answer from the same path form.
 */
export function pathOf(endpoint: Endpoint): string {
  return fillPattern(routeOf(endpoint).path, endpoint);
}
