// The mapping from velodata's fields to GBFS, on small inline records.
import { describe, expect, it } from "vitest";
import type { Availabilities } from "../../../../src/model/api.js";
import type { Contract } from "../../../../src/model/contract.js";
import type { Station } from "../../../../src/model/station.js";
import {
  renderGbfsStatic,
  renderGbfsStatus,
} from "../../../../src/publish/render/gbfs/contract-feeds.js";
import { renderDiscovery } from "../../../../src/publish/render/gbfs/discovery.js";
import type { GbfsUrls } from "../../../../src/publish/render/gbfs/feed.js";
import { stationInformationEntry } from "../../../../src/publish/render/gbfs/station-information.js";
import { stationStatusEntry } from "../../../../src/publish/render/gbfs/station-status.js";
import { gbfsSystem } from "../../../../src/publish/render/gbfs/system.js";
import { renderSystemInformation } from "../../../../src/publish/render/gbfs/system-information.js";
import { vehicleTypesOf } from "../../../../src/publish/render/gbfs/vehicle-types.js";
import { stationStatusEntryJson } from "../../../../src/publish/render/station-json.js";
import { renderStationV1 } from "../../../../src/publish/render/v1.js";
import { renderStationV3 } from "../../../../src/publish/render/v3.js";
import { type LiveState, stationKey } from "../../../../src/source/dataset.js";
import { LIVE, STATIC, URLS } from "./gbfs-helpers.js";

const contract: Contract = {
  name: "Lyon",
  commercial_name: "Vélo'v",
  country_code: "FR",
  cities: ["Lyon"],
  parkingApi: false,
  timezone: "Europe/Paris",
  languages: ["fr", "en"],
  feed_contact_email: "gbfs@example.org",
  opening_hours: "24/7",
  bikeTypes: { electricalRemovableBattery: { max_range_meters: 60000 }, mechanical: {} },
  operator: {
    name: "JCDecaux",
    url: "https://velov.grandlyon.com",
    email: "a@b.fr",
    phone: "+33900000000",
  },
  license: { id: "ODbL-1.0", url: "https://opendatacommons.org/licenses/odbl/1-0/" },
};
const station: Station = {
  contract: "Lyon",
  number: 123,
  name: "PLACE GUICHARD",
  address: "",
  latitude: 45.77,
  longitude: 4.86,
  banking: true,
  bonus: false,
  overflow: true,
  capacity: 30,
  overflowCapacity: 10,
};
const stands = (mechanical: number, removable: number, free: number): Availabilities => ({
  bikes: mechanical + removable,
  stands: free,
  mechanicalBikes: mechanical,
  electricalBikes: removable,
  electricalInternalBatteryBikes: 0,
  electricalRemovableBatteryBikes: removable,
});
const live: LiveState = {
  status: "OPEN",
  connected: true,
  lastUpdate: "2025-02-08T16:44:06Z",
  main: stands(5, 2, 20),
  overflow: stands(1, 1, 6),
};
const types = vehicleTypesOf(contract);
const system = gbfsSystem(contract);

describe("vehicle types", () => {
  it("come from the declared kinds, in a fixed order, with the range only for electrical ones", () => {
    expect(
      types.map(({ id, propulsion, maxRangeMeters }) => [id, propulsion, maxRangeMeters]),
    ).toEqual([
      ["mechanical", "human", undefined],
      ["electrical_removable_battery", "electric_assist", 60000],
    ]);
  });
});

describe("station_information", () => {
  it("takes the id from the number, capacity as main + overflow, and leaves out an empty address", () => {
    expect(stationInformationEntry(system, station, "3.0")).toEqual({
      station_id: "123",
      name: [
        { text: "PLACE GUICHARD", language: "fr" },
        { text: "PLACE GUICHARD", language: "en" },
      ],
      lat: 45.77,
      lon: 4.86,
      capacity: 40,
      is_virtual_station: false,
    });
    const v2 = stationInformationEntry(system, { ...station, address: "Place Guichard" }, "2.3");
    expect(v2.name).toBe("PLACE GUICHARD");
    expect(v2.address).toBe("Place Guichard");
  });
});

describe("station_status", () => {
  it("sums main and overflow stands, by vehicle type, and reports when the station did", () => {
    expect(stationStatusEntry(station, live, types, "3.0")).toEqual({
      station_id: "123",
      num_vehicles_available: 9,
      vehicle_types_available: [
        { vehicle_type_id: "mechanical", count: 6 },
        { vehicle_type_id: "electrical_removable_battery", count: 3 },
      ],
      num_docks_available: 26,
      is_installed: true,
      is_renting: true,
      is_returning: true,
      last_reported: "2025-02-08T16:44:06Z",
    });
    const v2 = stationStatusEntry(station, live, types, "2.3");
    expect(v2.num_bikes_available).toBe(9);
    expect(v2.num_vehicles_available).toBeUndefined();
    expect(v2.last_reported).toBe(1739033046);
  });

  it("counts no overflow group at a station without overflow stands, as v3 and v1 show it", () => {
    // A state kept from before the static source removed the station's overflow stands (a
    // refresh's kept state, the simulator's): only the main stands are the station's now.
    const without = { ...station, overflow: false, overflowCapacity: null };
    const entry = stationStatusEntry(without, live, types, "3.0");
    expect(entry).toMatchObject({ num_vehicles_available: 7, num_docks_available: 20 });
    expect(entry.vehicle_types_available.map((type) => type.count)).toEqual([5, 2]);
    // Within the capacity station_information gives it.
    expect((entry.num_vehicles_available ?? 0) + entry.num_docks_available).toBeLessThanOrEqual(
      stationInformationEntry(system, without, "3.0").capacity,
    );
    expect(stationStatusEntry(without, live, types, "2.3").num_bikes_available).toBe(7);
  });

  it("counts the overflow stands of a station that says overflow false, as v3 and v1 do, within its capacity", () => {
    // Validation warns of stands beside overflow false, and publishes them as given: v3's
    // totalStands and v1's figures count them, so GBFS does, and its capacity holds them.
    const refusing = { ...station, overflow: false };
    const entry = stationStatusEntry(refusing, live, types, "3.0");
    const v3 = renderStationV3(refusing, live).totalStands;
    const v1 = renderStationV1(refusing, live);
    expect([entry.num_vehicles_available, entry.num_docks_available]).toEqual([9, 26]);
    expect([v3.availabilities.bikes, v3.availabilities.stands]).toEqual([9, 26]);
    expect([v1.available_bikes, v1.available_bike_stands]).toEqual([9, 26]);
    expect(entry.vehicle_types_available.map((type) => type.count)).toEqual([6, 3]);
    const capacity = stationInformationEntry(system, refusing, "3.0").capacity;
    expect([capacity, v3.capacity, v1.bike_stands]).toEqual([40, 40, 40]);
    // The bytes a refresh splices in say the same as the entry.
    expect(JSON.parse(stationStatusEntryJson(refusing, live, types, "3.0"))).toEqual(entry);
  });

  it("neither rents nor takes returns when CLOSED, disconnected or reported at no time, but stays installed", () => {
    for (const state of [
      { ...live, status: "CLOSED" as const },
      { ...live, connected: false },
      // OPEN and connected as the real service sent it, but its report has no time.
      { ...live, lastUpdate: null },
    ]) {
      const entry = stationStatusEntry(station, state, types, "3.0");
      expect([entry.is_installed, entry.is_renting, entry.is_returning]).toEqual([
        true,
        false,
        false,
      ]);
    }
  });

  it("shows a station that never reported as not installed, empty, last reported 2015-12-15T05:00:00Z", () => {
    const v3 = stationStatusEntry(station, undefined, types, "3.0");
    expect(v3).toMatchObject({
      num_vehicles_available: 0,
      num_docks_available: 0,
      is_installed: false,
      is_renting: false,
      is_returning: false,
      last_reported: "2015-12-15T05:00:00Z",
    });
    expect(v3.vehicle_types_available.map((type) => type.count)).toEqual([0, 0]);
    expect(stationStatusEntry(station, undefined, types, "2.3").last_reported).toBe(1450155600);
  });
});

describe("system_information", () => {
  it("v3.0: localized names, operator, contacts, manifest_url, license_id alone when there is one, and whom to attribute", () => {
    expect(renderSystemInformation(system, "3.0", STATIC, URLS)).toEqual({
      last_updated: "2026-11-01T10:00:00Z",
      ttl: 3600,
      version: "3.0",
      data: {
        system_id: "lyon",
        languages: ["fr", "en"],
        name: [
          { text: "Vélo'v", language: "fr" },
          { text: "Vélo'v", language: "en" },
        ],
        opening_hours: "24/7",
        operator: [
          { text: "JCDecaux", language: "fr" },
          { text: "JCDecaux", language: "en" },
        ],
        url: "https://velov.grandlyon.com",
        phone_number: "+33900000000",
        email: "a@b.fr",
        feed_contact_email: "gbfs@example.org",
        manifest_url: "https://example.org/gbfs/manifest.json",
        timezone: "Europe/Paris",
        license_id: "ODbL-1.0",
        // ODbL asks for attribution: to the operator the data comes from.
        attribution_organization_name: [
          { text: "JCDecaux", language: "fr" },
          { text: "JCDecaux", language: "en" },
        ],
        attribution_url: "https://velov.grandlyon.com",
      },
    });
  });

  it("v3.0: names no one to attribute under a public domain dedication, or without an operator", () => {
    const attribution = (changes: Partial<typeof contract>) =>
      Object.keys(
        renderSystemInformation(gbfsSystem({ ...contract, ...changes }), "3.0", STATIC, URLS).data,
      ).filter((field) => field.startsWith("attribution_"));
    expect(attribution({ license: { id: "CC0-1.0" } })).toEqual([]);
    expect(attribution({ operator: undefined })).toEqual([]);
    expect(attribution({ license: undefined })).toEqual([]);
    // A licence of its own (a URL) may ask for it: named.
    expect(attribution({ license: { url: "https://example.org/l" } })).toEqual([
      "attribution_organization_name",
      "attribution_url",
    ]);
    // v2.3 has no such fields.
    const v2 = renderSystemInformation(gbfsSystem(contract), "2.3", STATIC, URLS).data;
    expect(Object.keys(v2).filter((field) => field.startsWith("attribution_"))).toEqual([]);
  });

  it("v2.3: one language, plain strings, and the licence as a URL", () => {
    const data = renderSystemInformation(system, "2.3", STATIC, URLS).data;
    expect(data).toMatchObject({ language: "fr", name: "Vélo'v", operator: "JCDecaux" });
    expect(data.license_url).toBe("https://opendatacommons.org/licenses/odbl/1-0/");
    const idOnly = gbfsSystem({ ...contract, license: { id: "ODbL-1.0" } });
    expect(renderSystemInformation(idOnly, "2.3", STATIC, URLS).data.license_url).toBe(
      "https://spdx.org/licenses/ODbL-1.0.html",
    );
    const urlOnly = gbfsSystem({ ...contract, license: { url: "https://example.org/l" } });
    const v3 = renderSystemInformation(urlOnly, "3.0", STATIC, URLS).data;
    expect([v3.license_id, v3.license_url]).toEqual([undefined, "https://example.org/l"]);
  });
});

describe("discovery and times", () => {
  it("asks the URL function for every URL and keys v2.3 by the main language", () => {
    const asked: string[] = [];
    const urls: GbfsUrls = {
      feed: (name, version, feed) => {
        asked.push(`${name} ${version} ${feed}`);
        return `https://x.test/${feed}`;
      },
      manifest: () => "https://x.test/manifest",
    };
    const v2 = renderDiscovery(system, "2.3", STATIC, urls).data as Record<string, unknown>;
    expect(Object.keys(v2)).toEqual(["fr"]);
    expect(asked).toEqual([
      "Lyon 2.3 system_information",
      "Lyon 2.3 gbfs_versions",
      "Lyon 2.3 vehicle_types",
      "Lyon 2.3 station_information",
      "Lyon 2.3 station_status",
    ]);
  });

  it("stamps the static files with the static time and station_status with the refresh's", () => {
    const states = new Map([[stationKey("Lyon", 123), live]]);
    for (const file of renderGbfsStatic(contract, [station], STATIC, URLS)) {
      expect([file.body.last_updated, file.body.ttl]).toEqual([
        file.version === "2.3" ? 1793527200 : "2026-11-01T10:00:00Z",
        3600,
      ]);
    }
    for (const file of renderGbfsStatus(contract, [station], states, LIVE)) {
      expect([file.body.last_updated, file.body.ttl]).toEqual([
        file.version === "2.3" ? 1795162560 : "2026-11-20T08:16:00Z",
        60,
      ]);
    }
  });
});
