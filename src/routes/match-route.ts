// The route table read backwards: which endpoint a request (decoded path segments + query) asks for.
import { BUNDLE_NAME, type Endpoint } from "./routes.js";

export type RouteMatch =
  | { kind: "endpoint"; endpoint: Endpoint }
  /** A known route asked for wrongly: a clear 400. */
  | { kind: "invalid"; message: string }
  | { kind: "none" };

const found = (endpoint: Endpoint): RouteMatch => ({ kind: "endpoint", endpoint });
const invalid = (message: string): RouteMatch => ({ kind: "invalid", message });
const NONE: RouteMatch = { kind: "none" };

const WHOLE_NUMBER = /^\d{1,15}$/;

function withNumber(text: string, what: string, make: (number: number) => Endpoint): RouteMatch {
  if (!WHOLE_NUMBER.test(text)) return invalid(`${what} must be a whole number, got "${text}"`);
  return found(make(Number(text)));
}

export function matchRoute(segments: readonly string[], query: URLSearchParams): RouteMatch {
  const path = segments.join("/");
  if (path === "vls/v3/contracts") return found({ name: "contracts" });
  if (segments[0] === "vls" && segments[1] === "v3" && segments[2] === "stations") {
    return matchStations(segments.slice(3), query);
  }
  if (path.startsWith("parking/v1/contracts/")) return matchParkings(segments.slice(3));
  if (path.startsWith("rest/vls/stations/") && segments.length === 4) {
    const download = /^(.+)\.(json|csv)$/.exec(segments[3] as string);
    if (!download) return NONE;
    return found({
      name: "staticStations",
      contract: download[1] as string,
      format: download[2] as "json" | "csv",
    });
  }
  if (path === `download/${BUNDLE_NAME}`) return found({ name: "bundle" });
  if (path === "status") return found({ name: "status" });
  return matchPage(segments);
}

// Temporary, until the route table lists the portal: `/` and `/docs/` are their folders' index.html.
const PAGE_FOLDERS = ["portal", "docs"];

function matchPage(segments: readonly string[]): RouteMatch {
  const [first, second] = segments;
  if (first === undefined || (first === "index.html" && segments.length === 1)) {
    return found({ name: "page", path: "/index.html" });
  }
  if (!PAGE_FOLDERS.includes(first) || segments.length > 2) return NONE;
  return found({ name: "page", path: `/${first}/${second ?? "index.html"}` });
}

function matchStations(rest: readonly string[], query: URLSearchParams): RouteMatch {
  const contract = query.get("contract");
  if (contract === "") return invalid("the contract parameter is empty: ?contract=NAME");
  const [first, second] = rest;
  if (rest.length === 0) {
    return found(contract === null ? { name: "stations" } : { name: "contractStations", contract });
  }
  if (rest.length === 1 && first !== undefined) {
    if (contract !== null)
      return withNumber(first, "station number", (number) => ({
        name: "station",
        contract,
        number,
      }));
    // The path form of "stations of a contract", or a station asked for without its contract.
    if (WHOLE_NUMBER.test(first))
      return invalid(`the contract parameter is required: /vls/v3/stations/${first}?contract=NAME`);
    return found({ name: "contractStations", contract: first });
  }
  if (rest.length === 2 && first !== undefined && second !== undefined) {
    return withNumber(second, "station number", (number) => ({
      name: "station",
      contract: first,
      number,
    }));
  }
  return NONE;
}

function matchParkings(rest: readonly string[]): RouteMatch {
  const [contract, parks, number] = rest;
  if (contract === undefined || parks !== "parks") return NONE;
  if (rest.length === 2) return found({ name: "parks", contract });
  if (rest.length === 3 && number !== undefined) {
    return withNumber(number, "park number", (park) => ({ name: "park", contract, number: park }));
  }
  return NONE;
}
