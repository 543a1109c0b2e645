// The legacy v1 answers: byte for byte the real service's, from the same Dataset as v3.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { publish } from "../../src/publish/publish.js";
import { type LiveState, stationKey } from "../../src/source/dataset.js";
import { REFERENCE } from "../helpers.js";
import { fixtureDataset, GENERATED_AT, json, text } from "./publish-helpers.js";

interface RealV1Station {
  number: number;
  available_bikes: number;
  available_bike_stands: number;
  status: "OPEN" | "CLOSED";
  last_update: number | null;
}

const realToulouse = readFileSync(join(REFERENCE, "v1_stations_toulouse_2020-12-16.json"), "utf8");
const realRouen = JSON.parse(
  readFileSync(join(REFERENCE, "v1_station_rouen_null_last_update_2021-05-31.json"), "utf8"),
);

/** The states of the real answer itself (the fixtures alter two of them on purpose). */
function statesOfTheRealAnswer(): Map<string, LiveState> {
  const states = new Map<string, LiveState>();
  for (const station of JSON.parse(realToulouse) as RealV1Station[]) {
    const bikes = station.available_bikes;
    states.set(stationKey("toulouse", station.number), {
      status: station.status,
      connected: true,
      lastUpdate:
        station.last_update === null
          ? null
          : new Date(station.last_update).toISOString().replace(".000Z", "Z"),
      main: {
        bikes,
        stands: station.available_bike_stands,
        mechanicalBikes: bikes,
        electricalBikes: 0,
        electricalInternalBatteryBikes: 0,
        electricalRemovableBatteryBikes: 0,
      },
      overflow: null,
    });
  }
  return states;
}

describe("v1 stations", () => {
  it("equals the real v1 answer for Toulouse byte for byte, given that answer's states", async () => {
    const dataset = await fixtureDataset();
    const states = new Map(dataset.states);
    for (const [key, state] of statesOfTheRealAnswer()) states.set(key, state);
    const { release } = await publish({ ...dataset, states }, { generatedAt: GENERATED_AT });
    expect(text(release, "/vls/v1/stations/toulouse")).toBe(realToulouse);
  });

  it("shows the fixtures' two altered Toulouse states, so the test above is not vacuous", async () => {
    const { release } = await publish(await fixtureDataset(), { generatedAt: GENERATED_AT });
    expect(text(release, "/vls/v1/stations/toulouse")).not.toBe(realToulouse);
    expect(json(release, "/vls/v1/stations/toulouse/280")).toMatchObject({
      status: "CLOSED",
      available_bikes: 0,
    });
  });

  it("gives a station that never reported the real service's shape, last_update null", async () => {
    const dataset = await fixtureDataset();
    const states = new Map(dataset.states);
    states.delete(stationKey("dublin", 42));
    const { release } = await publish({ ...dataset, states }, { generatedAt: GENERATED_AT });
    const station = json(release, "/vls/v1/stations/dublin/42") as Record<string, unknown>;
    expect(Object.keys(station)).toEqual(Object.keys(realRouen));
    expect(station).toMatchObject({ last_update: null, available_bikes: 0, status: "CLOSED" });
  });

  it("counts main and overflow stands together", async () => {
    const { release } = await publish(await fixtureDataset(), { generatedAt: GENERATED_AT });
    const v3 = json(release, "/vls/v3/stations/lyon/123") as {
      totalStands: { availabilities: { bikes: number; stands: number }; capacity: number };
    };
    expect(json(release, "/vls/v1/stations/lyon/123")).toMatchObject({
      bike_stands: v3.totalStands.capacity,
      available_bikes: v3.totalStands.availabilities.bikes,
      available_bike_stands: v3.totalStands.availabilities.stands,
    });
    expect(v3.totalStands.capacity).toBeGreaterThan(
      (json(release, "/vls/v3/stations/lyon/123") as { mainStands: { capacity: number } })
        .mainStands.capacity,
    );
  });

  it("lists the contracts with v3's fields in the order the real v1 service emitted them", async () => {
    // {"name":"Rouen","cities":["Rouen"],"commercial_name":"cy'clic","country_code":"FR"}, as
    // several clients of the real v1 API quote its answer (the documentation's example differs).
    const { release } = await publish(await fixtureDataset(), { generatedAt: GENERATED_AT });
    const v1 = json(release, "/vls/v1/contracts") as Record<string, unknown>[];
    const v3 = json(release, "/vls/v3/contracts") as Record<string, unknown>[];
    expect(v1).toEqual(v3);
    for (const contract of v1) {
      expect(Object.keys(contract)).toEqual(["name", "cities", "commercial_name", "country_code"]);
    }
  });
});
