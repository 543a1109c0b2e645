// The route table: the one place that knows which URL path serves which answer, and where it lives on disk.

export type Endpoint =
  | { name: "contracts" }
  | { name: "stations" }
  | { name: "contractStations"; contract: string }
  | { name: "station"; contract: string; number: number }
  | { name: "parks"; contract: string }
  | { name: "park"; contract: string; number: number }
  | { name: "staticStations"; contract: string; format: "json" | "csv" }
  | { name: "bundle" }
  /** A file of the portal page (`/index.html`, `/portal/…`, `/docs/…`). Temporary: the route table will list them. */
  | { name: "page"; path: string }
  /** The server's own status for operators; not part of a Release. */
  | { name: "status" };

/** Dynamic answers change at every refresh; static ones only when the source is rebuilt. */
export type Freshness = "dynamic" | "static";

/** What a client may do without a key: only the static downloads, as the specification says. */
export type Access = "key" | "public";

const segment = (value: string | number): string => encodeURIComponent(String(value));

export const BUNDLE_NAME = "velodata-static.zip";

/**
 * The canonical URL path of an endpoint's answer. The two query endpoints of the specification
 * (`/vls/v3/stations?contract=C` and `/vls/v3/stations/N?contract=C`) get the path forms
 * `/vls/v3/stations/C` and `/vls/v3/stations/C/N`; contract names start with a letter, so
 * `/vls/v3/stations/C` never reads as a station number.
 */
export function pathOf(endpoint: Endpoint): string {
  switch (endpoint.name) {
    case "contracts":
      return "/vls/v3/contracts";
    case "stations":
      return "/vls/v3/stations";
    case "contractStations":
      return `/vls/v3/stations/${segment(endpoint.contract)}`;
    case "station":
      return `/vls/v3/stations/${segment(endpoint.contract)}/${endpoint.number}`;
    case "parks":
      return `/parking/v1/contracts/${segment(endpoint.contract)}/parks`;
    case "park":
      return `/parking/v1/contracts/${segment(endpoint.contract)}/parks/${endpoint.number}`;
    case "staticStations":
      // Where the original service offered its downloads (…/rest/vls/stations/Dublin.json).
      return `/rest/vls/stations/${segment(endpoint.contract)}.${endpoint.format}`;
    case "bundle":
      return `/download/${BUNDLE_NAME}`;
    case "page":
      return endpoint.path;
    case "status":
      return "/status";
  }
}

export function freshnessOf(endpoint: Endpoint): Freshness {
  const dynamic = ["stations", "contractStations", "station", "status"];
  return dynamic.includes(endpoint.name) ? "dynamic" : "static";
}

export function accessOf(endpoint: Endpoint): Access {
  const open = ["staticStations", "bundle", "status", "page"];
  return open.includes(endpoint.name) ? "public" : "key";
}

/**
 * Where an answer lives in the tree, relative to its root. An API answer is a `.json` file at its
 * URL path (a path cannot be both a file and a folder: `vls/v3/stations.json` sits beside the
 * folder `vls/v3/stations/`); a static server maps the extension-less URL to it. A download
 * already ends in its extension and keeps its name.
 */
export function fileOf(urlPath: string): string {
  const relative = urlPath.replace(/^\/+/, "");
  const last = relative.slice(relative.lastIndexOf("/") + 1);
  return last.includes(".") ? relative : `${relative}.json`;
}
