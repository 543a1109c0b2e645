import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ContractV3, ParkingV1, StationV3 } from "../../src/model/api.js";
import type { Release } from "../../src/publish/release.js";
import { renderStationV3 } from "../../src/publish/render/v3.js";
import { REFERENCE } from "../helpers.js";
import { fixtureRelease, json, text } from "./publish-helpers.js";

const sample = (name: string): unknown => JSON.parse(readFileSync(join(REFERENCE, name), "utf8"));

/** Every key path of a JSON value, in order: equal lists mean equal field names and order, at every depth. */
function keyPaths(value: unknown, prefix = ""): string[] {
  if (Array.isArray(value)) return value.length > 0 ? keyPaths(value[0], `${prefix}[]`) : [];
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => [
    `${prefix}.${key}`,
    ...keyPaths(child, `${prefix}.${key}`),
  ]);
}

let release: Release;
beforeAll(async () => {
  release = await fixtureRelease();
});

describe("v3 stations", () => {
  it("reproduces the real Dublin answer byte for byte (once compacted)", () => {
    const real = sample("v3_stations_dublin_2025-02-08.json");
    expect(text(release, "/vls/v3/stations/dublin")).toBe(JSON.stringify(real));
  });

  it("reproduces the real Lyon stations, fields and order included", () => {
    const real = sample("v3_stations_lyon_2022-04-25.json") as unknown[];
    const ours = json(release, "/vls/v3/stations/lyon") as unknown[];
    expect(JSON.stringify(ours.slice(0, 2))).toBe(JSON.stringify(real));
  });

  it("orders the keys of a station with overflow stands like the documented example", () => {
    const example = sample("RECONSTRUCTED_v3_station_doc_example_overflow.json") as Record<
      string,
      unknown
    >;
    const ours = json(release, "/vls/v3/stations/lyon/123") as Record<string, unknown>;
    expect(Object.keys(ours)).toEqual(Object.keys(example));
    expect(StationV3.parse(ours)).toEqual(ours);
  });

  it("sums main and overflow stands into totalStands", () => {
    const station = json(release, "/vls/v3/stations/lyon/123") as { totalStands: unknown };
    expect(station.totalStands).toEqual({
      availabilities: {
        bikes: 15,
        stands: 25,
        mechanicalBikes: 9,
        electricalBikes: 6,
        electricalInternalBatteryBikes: 0,
        electricalRemovableBatteryBikes: 6,
      },
      capacity: 40,
    });
  });

  it("publishes a station that never reported as CLOSED, disconnected, empty, with lastUpdate null", () => {
    const station = {
      contract: "x",
      number: 1,
      name: "N",
      address: "",
      latitude: 1,
      longitude: 2,
      banking: true,
      bonus: false,
      overflow: true,
      capacity: 12,
      overflowCapacity: 3,
    };
    const rendered = renderStationV3(station);
    expect(rendered).toMatchObject({ status: "CLOSED", connected: false, lastUpdate: null });
    expect(rendered.mainStands).toEqual({
      availabilities: expect.objectContaining({ bikes: 0, stands: 0 }),
      capacity: 12,
    });
    expect(rendered.totalStands.capacity).toBe(15);
  });

  it("lists every station of every contract in the all-stations answer", () => {
    const all = json(release, "/vls/v3/stations") as { contractName: string }[];
    expect(all).toHaveLength(413);
    expect(new Set(all.map((s) => s.contractName))).toEqual(
      new Set(["dublin", "toulouse", "lyon", "nantes", "besancon"]),
    );
  });
});

describe("contracts", () => {
  it("emits name, commercial_name, country_code, cities in that order, and only those", () => {
    const contracts = json(release, "/vls/v3/contracts") as Record<string, unknown>[];
    expect(contracts).toHaveLength(5);
    for (const contract of contracts) {
      expect(Object.keys(contract)).toEqual(["name", "commercial_name", "country_code", "cities"]);
      ContractV3.parse(contract);
    }
    expect(contracts.find((c) => c.name === "besancon")).toMatchObject({
      commercial_name: "VéloCité",
      cities: ["Besançon"],
    });
  });
});

describe("parkings", () => {
  it("orders parking keys like the parking API", () => {
    const example = sample("RECONSTRUCTED_parking_park_example.json");
    const ours = json(release, "/parking/v1/contracts/nantes/parks/89");
    expect(keyPaths(ours)).toEqual(keyPaths(example));
    expect(ours).toEqual(example);
    ParkingV1.parse(ours);
  });

  it("publishes parkings only for contracts that offer the parking API", () => {
    expect((json(release, "/parking/v1/contracts/nantes/parks") as unknown[]).length).toBe(3);
    expect((json(release, "/parking/v1/contracts/lyon/parks") as unknown[]).length).toBe(2);
    expect(release.files.has("/parking/v1/contracts/dublin/parks")).toBe(false);
  });
});

describe("static downloads", () => {
  it("offers each contract's stations with the fields of the original static file, in its order", () => {
    const original = sample("static_stations_Dublin_2014.json");
    const ours = json(release, "/rest/vls/stations/dublin.json") as unknown[];
    expect(keyPaths(ours)).toEqual(keyPaths(original));
    expect(ours).toHaveLength(114);
  });

  it("writes the same stations as RFC 4180 CSV with CRLF and a header", () => {
    const csv = text(release, "/rest/vls/stations/besancon.csv");
    expect(csv.split("\r\n")).toEqual([
      "number,name,address,latitude,longitude",
      "1,01 - RÉVOLUTION,Place de la Révolution,47.2396,6.0227",
      "2,02 - GRANVELLE,Promenade Granvelle,47.2366,6.0234",
      "3,03 - GARE VIOTTE,Avenue de la Paix,47.2469,6.0222",
      "4,04 - CHAMARS,Promenade Chamars,47.2335,6.0186",
      "",
    ]);
  });

  it("serves JSON as application/json and CSV as UTF-8 text/csv", () => {
    expect(release.files.get("/vls/v3/contracts")?.contentType).toBe("application/json");
    expect(release.files.get("/rest/vls/stations/dublin.csv")?.contentType).toBe(
      "text/csv; charset=utf-8",
    );
  });
});
