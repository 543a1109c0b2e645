// Everything the portal page shows, as one typed value: the renderer reads nothing else.
import { type Endpoint, requestOf } from "../../../routes/routes.js";

/** How the specification writes the key in its example request (`...&apiKey=<API_KEY>`). */
export const KEY_PLACEHOLDER = "<API_KEY>";

/** A request with the key placeholder added to its query, as a client would send it. */
export const withKey = (request: string): string =>
  `${request}${request.includes("?") ? "&" : "?"}apiKey=${KEY_PLACEHOLDER}`;

/** An endpoint's request as the specification spells it, with the key placeholder. */
export const keyedRequest = (endpoint: Endpoint): string => withKey(requestOf(endpoint));

export interface PortalInput {
  serviceName: string;
  description: string;
  keys: { text: string; url: string | null };
  /** The language of the three texts above (a BCP 47 tag); null: the page's own, English. */
  language: string | null;
  /** The public base URL (`https://bikes.example.org`); null: requests are shown from the page's own origin. */
  baseUrl: string | null;
  /**
   * ISO 8601; when the static data last changed (its source's files). Null leaves it out. Never the
   * time of a refresh: a page that changed at every one would defeat the CDN's ETags, and the live
   * feeds carry their own time.
   */
  generatedAt: string | null;
  contracts: PortalContract[];
  endpoints: PortalEndpoint[];
  downloads: PortalDownload[];
  /** `/gbfs/manifest.json`, the network's list of GBFS systems; null until GBFS is published. */
  gbfsManifest: string | null;
  /** The OpenAPI document's path; null until it is published (then no reference page either). */
  openapi: string | null;
}

export interface PortalContract {
  name: string;
  commercialName: string;
  countryCode: string;
  cities: string[];
  languages: string[];
  license: PortalLicense | null;
  /**
   * Who publishes the data (the contract's `operator`): the licensor an attribution licence (CC
   * BY, ODbL) asks reusers to credit, named beside the licence; null when the source names none.
   */
  operator: { name: string; url: string | null } | null;
  /**
   * How many stations it has. The stations themselves are not on the page: its script draws the
   * map from the GBFS feeds, so the page stays the same size however large the network grows.
   */
  stationCount: number;
  /** The GBFS discovery files (v2.3 and v3.0) and the v3.0 feeds the page reads; null until published. */
  gbfs: PortalGbfs | null;
}

export interface PortalGbfs {
  discovery: string;
  discoveryV3: string;
  /** Where the map's stations come from (positions, names, stands). */
  stationInformation: string;
  /** Where the map's colours and the live totals come from. */
  stationStatus: string;
}

export interface PortalEndpoint {
  title: string;
  /** The request as a client sends it, path and query, with the key as `KEY_PLACEHOLDER`. */
  request: string;
  keyed: boolean;
  description: string;
}

export interface PortalLicense {
  id: string | null;
  url: string | null;
}

export interface PortalDownload {
  title: string;
  path: string;
  bytes: number;
  format: string;
  /** The licences of the data inside; empty when the source names none. */
  licenses: PortalLicense[];
  /** Data under different licences (or some under none): said instead of `licenses`. */
  mixed?: boolean;
}
