// The station answers written as text must be exactly JSON.stringify of the renderers' objects.
import { describe, expect, it } from "vitest";
import type { Availabilities } from "../../../src/model/api.js";
import type { Station } from "../../../src/model/station.js";
import { GBFS_VERSIONS } from "../../../src/publish/render/gbfs/feed.js";
import { stationStatusEntry } from "../../../src/publish/render/gbfs/station-status.js";
import { vehicleTypesOf } from "../../../src/publish/render/gbfs/vehicle-types.js";
import {
  stationStatusEntryJson,
  stationV1Json,
  stationV3Json,
} from "../../../src/publish/render/station-json.js";
import { renderStationV1 } from "../../../src/publish/render/v1.js";
import { renderStationV3 } from "../../../src/publish/render/v3.js";
import { type LiveState, stationKey } from "../../../src/source/dataset.js";
import { fixtureDataset } from "../publish-helpers.js";

const counts = (seed: number): Availabilities => ({
  bikes: seed + 5,
  stands: seed + 1,
  mechanicalBikes: seed,
  electricalBikes: 5,
  electricalInternalBatteryBikes: 2,
  electricalRemovableBatteryBikes: 3,
});

const base: Station = {
  contract: "lyon",
  number: 12,
  name: "Place Bellecour",
  address: "2 place Bellecour",
  latitude: 45.757,
  longitude: 4.832,
  banking: true,
  bonus: false,
  overflow: false,
  capacity: 20,
  overflowCapacity: null,
};

// Names JSON.stringify must escape (quotes, backslashes, control characters, a lone surrogate),
// accents, overflow stands with and without their state, negative and fractional coordinates.
const stations: Station[] = [
  base,
  { ...base, name: 'Gare "Part-Dieu" \\ Vivier-Merle', address: "tab\there\nnew line\u0001" },
  { ...base, name: "Hôtel de Ville – Œuvre ÿ", address: "\ud800 lone surrogate", number: 0 },
  { ...base, overflow: true, overflowCapacity: 8, latitude: -33.5, longitude: -0.000001 },
  { ...base, overflowCapacity: 0, capacity: 0, banking: false, bonus: true },
];

const states: (LiveState | undefined)[] = [
  undefined,
  {
    status: "OPEN",
    connected: true,
    lastUpdate: "2026-11-20T08:15:42Z",
    main: counts(3),
    overflow: null,
  },
  {
    status: "CLOSED",
    connected: false,
    lastUpdate: null,
    main: counts(0),
    overflow: counts(7),
  },
  {
    status: "OPEN",
    connected: false,
    lastUpdate: "1999-12-31T23:59:59Z",
    main: counts(11),
    overflow: counts(1),
  },
  { status: "OPEN", connected: true, lastUpdate: null, main: counts(4), overflow: null },
];

describe("station answers written as text", () => {
  it("are JSON.stringify of renderStationV3 and renderStationV1, byte for byte", () => {
    for (const station of stations)
      for (const state of states) {
        expect(stationV3Json(station, state)).toBe(JSON.stringify(renderStationV3(station, state)));
        expect(stationV1Json(station, state)).toBe(JSON.stringify(renderStationV1(station, state)));
      }
  });

  it("are JSON.stringify of GBFS station_status entries, every version and set of bike kinds", () => {
    const kinds = [
      {},
      { mechanical: {} },
      { mechanical: {}, electricalInternalBattery: {}, electricalRemovableBattery: {} },
    ];
    for (const bikeTypes of kinds) {
      const types = vehicleTypesOf({ bikeTypes } as Parameters<typeof vehicleTypesOf>[0]);
      for (const station of stations)
        for (const state of states)
          for (const version of GBFS_VERSIONS)
            expect(stationStatusEntryJson(station, state, types, version)).toBe(
              JSON.stringify(stationStatusEntry(station, state, types, version)),
            );
    }
  });

  it("are the renderers' text for every station of the fixtures", async () => {
    const dataset = await fixtureDataset();
    for (const station of dataset.stations) {
      const state = dataset.states.get(stationKey(station.contract, station.number));
      expect(stationV3Json(station, state)).toBe(JSON.stringify(renderStationV3(station, state)));
      expect(stationV1Json(station, state)).toBe(JSON.stringify(renderStationV1(station, state)));
      const contract = dataset.contracts.find(({ name }) => name === station.contract);
      const types = contract ? vehicleTypesOf(contract) : [];
      for (const version of GBFS_VERSIONS)
        expect(stationStatusEntryJson(station, state, types, version)).toBe(
          JSON.stringify(stationStatusEntry(station, state, types, version)),
        );
    }
  });
});
