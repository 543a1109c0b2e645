import { describe, expect, it } from "vitest";
import { matchRoute } from "../../src/routes/match-route.js";
import { accessOf, type Endpoint, fileOf, freshnessOf, pathOf } from "../../src/routes/routes.js";

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
      { name: "staticStations", contract: "dublin", format: "csv" },
      "/rest/vls/stations/dublin.csv",
      "rest/vls/stations/dublin.csv",
    ],
    [{ name: "bundle" }, "/download/velodata-static.zip", "download/velodata-static.zip"],
  ];

  it.each(endpoints)("puts %j at %s, in the file %s, and reads it back", (endpoint, path, file) => {
    expect(pathOf(endpoint)).toBe(path);
    expect(fileOf(path)).toBe(file);
    expect(match(path)).toEqual({ kind: "endpoint", endpoint });
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
  });

  it("refuses a malformed station number, an empty contract and a station without its contract", () => {
    expect(match("/vls/v3/stations/4x2", "contract=dublin")).toMatchObject({
      kind: "invalid",
      message: expect.stringContaining("whole number"),
    });
    expect(match("/vls/v3/stations/dublin/-1")).toMatchObject({ kind: "invalid" });
    expect(match("/vls/v3/stations", "contract=")).toMatchObject({
      kind: "invalid",
      message: expect.stringContaining("empty"),
    });
    expect(match("/vls/v3/stations/42")).toMatchObject({
      kind: "invalid",
      message: expect.stringContaining("?contract=NAME"),
    });
    expect(match("/parking/v1/contracts/nantes/parks/abc")).toMatchObject({ kind: "invalid" });
  });

  it("finds the portal's files: / and /docs/ are their folders' index.html", () => {
    expect(match("/")).toEqual({
      kind: "endpoint",
      endpoint: { name: "page", path: "/index.html" },
    });
    expect(match("/index.html")).toMatchObject({ endpoint: { path: "/index.html" } });
    expect(match("/docs/")).toMatchObject({ endpoint: { path: "/docs/index.html" } });
    expect(match("/portal/portal.js")).toMatchObject({ endpoint: { path: "/portal/portal.js" } });
    expect(accessOf({ name: "page", path: "/index.html" })).toBe("public");
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
    ]) {
      expect(match(path)).toEqual({ kind: "none" });
    }
  });

  it("asks a key for the API, not for the downloads; only station answers are dynamic", () => {
    expect(accessOf({ name: "contracts" })).toBe("key");
    expect(accessOf({ name: "bundle" })).toBe("public");
    expect(accessOf({ name: "staticStations", contract: "a", format: "json" })).toBe("public");
    expect(freshnessOf({ name: "station", contract: "a", number: 1 })).toBe("dynamic");
    expect(freshnessOf({ name: "parks", contract: "a" })).toBe("static");
  });
});
