import { describe, expect, it } from "vitest";
import { matchRoute } from "../../src/routes/match-route.js";
import { fillPattern, placeholdersOf } from "../../src/routes/pattern.js";
import {
  accessOf,
  type Endpoint,
  fileOf,
  pathOf,
  ROUTE_LIST,
  requestOf,
  routeOf,
} from "../../src/routes/routes.js";

const match = (path: string, query = "") =>
  matchRoute(path.split("/").filter(Boolean), new URLSearchParams(query));

describe("route table", () => {
  const endpoints: [Endpoint, string, string][] = [
    [{ name: "contracts" }, "/vls/v3/contracts", "vls/v3/contracts.json"],
    [{ name: "stations" }, "/vls/v3/stations", "vls/v3/stations.json"],
    [
      { name: "contractStations", contract: "dublin" },
      "/vls/v3/stations/dublin",
      "vls/v3/stations/dublin.json",
    ],
    [
      { name: "station", contract: "dublin", number: 42 },
      "/vls/v3/stations/dublin/42",
      "vls/v3/stations/dublin/42.json",
    ],
    [
      { name: "parks", contract: "nantes" },
      "/parking/v1/contracts/nantes/parks",
      "parking/v1/contracts/nantes/parks.json",
    ],
    [
      { name: "park", contract: "nantes", number: 89 },
      "/parking/v1/contracts/nantes/parks/89",
      "parking/v1/contracts/nantes/parks/89.json",
    ],
    [
      { name: "staticStationsCsv", contract: "dublin" },
      "/rest/vls/stations/dublin.csv",
      "rest/vls/stations/dublin.csv",
    ],
    [
      { name: "staticStations", contract: "dublin" },
      "/rest/vls/stations/dublin.json",
      "rest/vls/stations/dublin.json",
    ],
    [{ name: "contractsV1" }, "/vls/v1/contracts", "vls/v1/contracts.json"],
    [{ name: "stationsV1" }, "/vls/v1/stations", "vls/v1/stations.json"],
    [
      { name: "contractStationsV1", contract: "toulouse" },
      "/vls/v1/stations/toulouse",
      "vls/v1/stations/toulouse.json",
    ],
    [
      { name: "stationV1", contract: "toulouse", number: 55 },
      "/vls/v1/stations/toulouse/55",
      "vls/v1/stations/toulouse/55.json",
    ],
    [{ name: "openapi" }, "/openapi.json", "openapi.json"],
    [
      { name: "gbfsDiscoveryV2", contract: "dublin" },
      "/contracts/dublin/gbfs/gbfs.json",
      "contracts/dublin/gbfs/gbfs.json",
    ],
    [
      { name: "gbfsStatusV2", contract: "dublin" },
      "/contracts/dublin/gbfs/station_status.json",
      "contracts/dublin/gbfs/station_status.json",
    ],
    [
      { name: "gbfsFeedV2", contract: "dublin", feed: "gbfs_versions" },
      "/contracts/dublin/gbfs/gbfs_versions.json",
      "contracts/dublin/gbfs/gbfs_versions.json",
    ],
    [
      { name: "gbfsDiscoveryV2Folder", contract: "lyon" },
      "/contracts/lyon/gbfs/v2/gbfs.json",
      "contracts/lyon/gbfs/v2/gbfs.json",
    ],
    [
      { name: "gbfsFeedV2Folder", contract: "lyon", feed: "vehicle_types" },
      "/contracts/lyon/gbfs/v2/vehicle_types.json",
      "contracts/lyon/gbfs/v2/vehicle_types.json",
    ],
    [
      { name: "gbfsStatusV2Folder", contract: "lyon" },
      "/contracts/lyon/gbfs/v2/station_status.json",
      "contracts/lyon/gbfs/v2/station_status.json",
    ],
    [
      { name: "gbfsDiscoveryV3", contract: "lyon" },
      "/contracts/lyon/gbfs/v3/gbfs.json",
      "contracts/lyon/gbfs/v3/gbfs.json",
    ],
    [
      { name: "gbfsStatusV3", contract: "lyon" },
      "/contracts/lyon/gbfs/v3/station_status.json",
      "contracts/lyon/gbfs/v3/station_status.json",
    ],
    [
      { name: "gbfsFeedV3", contract: "lyon", feed: "station_information" },
      "/contracts/lyon/gbfs/v3/station_information.json",
      "contracts/lyon/gbfs/v3/station_information.json",
    ],
    [{ name: "gbfsManifest" }, "/gbfs/manifest.json", "gbfs/manifest.json"],
    [{ name: "bundle" }, "/download/velodata-static.zip", "download/velodata-static.zip"],
  ];

  it.each(endpoints)("puts %j at %s, in the file %s, and reads it back", (endpoint, path, file) => {
    expect(pathOf(endpoint)).toBe(path);
    expect(fileOf(path)).toBe(file);
    expect(match(path)).toEqual({ kind: "endpoint", endpoint });
  });

  it("fills a pattern again and again with each value encoded as one segment, and throws for a missing one", () => {
    const pattern = "/contracts/{contract}/gbfs/v3/{feed}.json";
    for (const contract of ["lyon", "a b/é", "lyon"])
      expect(fillPattern(pattern, { contract, feed: "x?y" })).toBe(
        `/contracts/${encodeURIComponent(contract)}/gbfs/v3/x%3Fy.json`,
      );
    expect(fillPattern("/gbfs/manifest.json", {})).toBe("/gbfs/manifest.json");
    expect(() => fillPattern(pattern, { contract: "lyon" })).toThrow("no value for {feed}");
  });

  it("maps the specification's query forms to the same answers as their path forms", () => {
    expect(match("/vls/v3/stations", "contract=Dublin")).toEqual({
      kind: "endpoint",
      endpoint: { name: "contractStations", contract: "Dublin" },
    });
    expect(match("/vls/v3/stations/42", "contract=dublin")).toEqual({
      kind: "endpoint",
      endpoint: { name: "station", contract: "dublin", number: 42 },
    });
    expect(match("/vls/v1/stations", "contract=Toulouse")).toEqual({
      kind: "endpoint",
      endpoint: { name: "contractStationsV1", contract: "Toulouse" },
    });
    expect(match("/vls/v1/stations/55", "contract=toulouse")).toEqual({
      kind: "endpoint",
      endpoint: { name: "stationV1", contract: "toulouse", number: 55 },
    });
  });

  it("reads a number spelled otherwise than the tree's URLs as an absent record, in every form", () => {
    const absent = (number: number, name = "station") => ({
      kind: "absent",
      endpoint: { name, contract: "dublin", number },
    });
    for (const spelled of ["042", "+42", "42.0", "42.", " 42", "42 ", "0000000000000042"])
      expect(match(`/vls/v3/stations/dublin/${spelled}`), spelled).toEqual(absent(42));
    expect(match("/vls/v3/stations/00", "contract=dublin")).toEqual(absent(0));
    expect(match("/vls/v1/stations/dublin/007")).toEqual(absent(7, "stationV1"));
    expect(match("/parking/v1/contracts/dublin/parks/+1")).toEqual(absent(1, "park"));
    // A query form's missing contract is still said, whatever the number's spelling.
    expect(match("/vls/v3/stations/042")).toMatchObject({
      kind: "invalid",
      message: "the contract parameter is required: /vls/v3/stations/042?contract=NAME",
    });
    // The plain spellings stay the endpoint itself; what is no whole number stays a 400.
    expect(match("/vls/v3/stations/dublin/0")).toMatchObject({ kind: "endpoint" });
    expect(match("/vls/v3/stations/dublin/42")).toMatchObject({ kind: "endpoint" });
    for (const malformed of ["4.2", "-042", "4 2", "0x2a", "4e1"])
      expect(match(`/vls/v3/stations/dublin/${malformed}`), malformed).toMatchObject({
        kind: "invalid",
      });
  });

  it("refuses a malformed station number, an empty contract and a station without its contract", () => {
    expect(match("/vls/v3/stations/4x2", "contract=dublin")).toMatchObject({
      kind: "invalid",
      message: expect.stringContaining("whole number"),
    });
    expect(match("/vls/v3/stations/dublin/-1")).toMatchObject({
      kind: "invalid",
      message: 'station number must be 0 or more, got "-1"',
    });
    // Past 15 digits a whole number is no station any source can hold: none that exists (404).
    for (const long of ["1234567890123456", "99999999999999999999", "+0099999999999999999.0"])
      expect(match(`/vls/v3/stations/dublin/${long}`), long).toMatchObject({ kind: "absent" });
    expect(match("/vls/v3/stations", "contract=dublin&contract=lyon")).toMatchObject({
      kind: "invalid",
      message: "the contract parameter is given twice with different values",
    });
    expect(match("/vls/v3/stations/dublin/42", "contract=lyon")).toMatchObject({
      kind: "invalid",
      message: "the contract is given twice with different values, in the path and in the query",
    });
    expect(match("/vls/v3/stations/dublin/42", "contract=")).toMatchObject({ kind: "endpoint" });
    expect(match("/vls/v3/stations/dublin/42", "contract=Dublin")).toEqual({
      kind: "endpoint",
      endpoint: { name: "station", contract: "dublin", number: 42 },
    });
    expect(match("/vls/v3/stations", "contract=dublin&contract=dublin")).toEqual({
      kind: "endpoint",
      endpoint: { name: "contractStations", contract: "dublin" },
    });
    // Contracts are named in any case: the same one twice.
    expect(match("/vls/v3/stations/42", "contract=dublin&contract=Dublin")).toEqual({
      kind: "endpoint",
      endpoint: { name: "station", contract: "dublin", number: 42 },
    });
    // A contract's list in its path form, its contract repeated in the query: not a station
    // "dublin" of the query form.
    expect(match("/vls/v3/stations/dublin", "contract=Dublin")).toEqual({
      kind: "endpoint",
      endpoint: { name: "contractStations", contract: "dublin" },
    });
    expect(match("/vls/v1/stations/toulouse", "contract=toulouse")).toMatchObject({
      endpoint: { name: "contractStationsV1", contract: "toulouse" },
    });
    // Neither a station "dublin" of the query form nor, its contracts differing, the path form:
    // which was meant cannot be told, so both are said.
    expect(match("/vls/v3/stations/dublin", "contract=lyon")).toMatchObject({
      kind: "invalid",
      message:
        'station number must be a whole number, got "dublin"; or, if dublin is a contract, /vls/v3/stations/dublin is its list, but ?contract= names another',
    });
    // No contract's name starts with a digit: a station number mistyped, and only that is said.
    expect(match("/vls/v3/stations/4two", "contract=lyon")).toMatchObject({
      kind: "invalid",
      message: 'station number must be a whole number, got "4two"',
    });
    expect(match("/vls/v3/stations", "contract=")).toMatchObject({
      kind: "invalid",
      message: expect.stringContaining("empty"),
    });
    expect(match("/vls/v3/stations/42", "contract=")).toMatchObject({
      kind: "invalid",
      message: "the contract parameter is empty: ?contract=NAME",
    });
    // The path form with its parameter given empty, as `…/dublin/42?contract=` above.
    expect(match("/vls/v3/stations/dublin", "contract=")).toEqual({
      kind: "endpoint",
      endpoint: { name: "contractStations", contract: "dublin" },
    });
    expect(match("/vls/v3/stations/42")).toMatchObject({
      kind: "invalid",
      message: "the contract parameter is required: /vls/v3/stations/42?contract=NAME",
    });
    expect(match("/vls/v1/stations/55")).toMatchObject({
      kind: "invalid",
      message: "the contract parameter is required: /vls/v1/stations/55?contract=NAME",
    });
    expect(match("/parking/v1/contracts/nantes/parks/abc")).toMatchObject({ kind: "invalid" });
  });

  it("finds the portal's files: / and /docs/ (with its slash, as its relative links need)", () => {
    expect(match("/")).toEqual({ kind: "endpoint", endpoint: { name: "portal" } });
    expect(matchRoute(["docs"], new URLSearchParams(), true)).toEqual({
      kind: "endpoint",
      endpoint: { name: "docs" },
    });
    expect(match("/docs")).toEqual({ kind: "none" });
    expect(match("/portal/portal.js")).toEqual({
      kind: "endpoint",
      endpoint: { name: "portalScript" },
    });
    expect(match("/docs/swagger-ui-bundle.js")).toMatchObject({
      endpoint: { name: "swaggerScript" },
    });
    // Folder or not, an API path answers as before.
    expect(matchRoute(["vls", "v3", "contracts"], new URLSearchParams(), true)).toMatchObject({
      endpoint: { name: "contracts" },
    });
    expect(accessOf({ name: "portal" })).toBe("public");
  });

  it("matches nothing else", () => {
    for (const path of [
      "/portal/a/b",
      "/other/index.html",
      "/vls/v3",
      "/vls/v3/contracts/x",
      "/parking/v1/contracts/nantes",
      "/rest/vls/stations/dublin",
      "/vls/v3/stations/a/1/2",
      "/vls/v2/stations",
      "/rest/vls/stations/dublin.xml",
    ]) {
      expect(match(path)).toEqual({ kind: "none" });
    }
  });

  it("asks a key for the API, not for the downloads; only station answers are dynamic", () => {
    expect(accessOf({ name: "contracts" })).toBe("key");
    expect(accessOf({ name: "bundle" })).toBe("public");
    expect(accessOf({ name: "staticStations", contract: "a" })).toBe("public");
    expect(accessOf({ name: "openapi" })).toBe("public");
    expect(accessOf({ name: "stationV1", contract: "a", number: 1 })).toBe("key");
    expect(routeOf({ name: "stationsV1" }).freshness).toBe("dynamic");
    expect(routeOf({ name: "station", contract: "a", number: 1 }).freshness).toBe("dynamic");
    expect(routeOf({ name: "parks", contract: "a" }).freshness).toBe("static");
  });
});

describe("the rows", () => {
  it("declare a type for every placeholder of their patterns, and only those", () => {
    for (const route of ROUTE_LIST) {
      const inPath = placeholdersOf(route.path);
      expect(inPath.sort(), route.name).toEqual(Object.keys(route.params).sort());
      if (route.query) {
        const inQuery = [...placeholdersOf(route.query.path), ...route.query.params];
        expect(inQuery.sort(), route.name).toEqual(Object.keys(route.params).sort());
      }
    }
  });

  it("have unique names and path forms", () => {
    expect(new Set(ROUTE_LIST.map((route) => route.name)).size).toBe(ROUTE_LIST.length);
    expect(new Set(ROUTE_LIST.map((route) => route.path)).size).toBe(ROUTE_LIST.length);
  });
});

describe("requestOf", () => {
  it("spells a request as the specification does: its query form, else its path form", () => {
    expect(requestOf({ name: "station", contract: "Saint Étienne", number: 42 })).toBe(
      "/vls/v3/stations/42?contract=Saint%20%C3%89tienne",
    );
    expect(requestOf({ name: "contractStationsV1", contract: "dublin" })).toBe(
      "/vls/v1/stations?contract=dublin",
    );
    expect(requestOf({ name: "contracts" })).toBe("/vls/v3/contracts");
  });

  it("gives requests the route table matches back to the same endpoint", () => {
    const endpoint: Endpoint = { name: "stationV1", contract: "lyon", number: 7 };
    const [path, query] = requestOf(endpoint).split("?");
    const segments = (path as string).split("/").filter(Boolean);
    expect(matchRoute(segments, new URLSearchParams(query))).toEqual({
      kind: "endpoint",
      endpoint,
    });
  });
});
