// What the schemas cannot check: agreement between files and between the two versions.
import { beforeAll, describe, expect, it } from "vitest";
import type { StationStatusEntry } from "../../../../src/publish/render/gbfs/station-status.js";
import type { Dataset } from "../../../../src/source/dataset.js";
import { fixtureDataset } from "../../publish-helpers.js";
import { type ContractFeeds, feedOf, fixtureFeeds, synthDataset } from "./gbfs-helpers.js";

type Status = Omit<StationStatusEntry, "last_reported">;
interface Information {
  station_id: string;
  capacity: number;
}

const stationsOf = <T>(feeds: ContractFeeds, version: "2.3" | "3.0", feed: string): T[] =>
  (feedOf(feeds, version, feed as "station_status").data as { stations: T[] }).stations;

describe.each([
  ["the fixtures", fixtureDataset],
  ["a synthetic network", synthDataset],
])("GBFS cross-file checks on %s", (_, load) => {
  let dataset: Dataset;
  let feeds: ContractFeeds[];
  beforeAll(async () => {
    dataset = await load();
    feeds = fixtureFeeds(dataset);
  });

  it("lists the same stations, in the same order, in station_information and station_status", () => {
    for (const contract of feeds) {
      for (const version of ["2.3", "3.0"] as const) {
        const info = stationsOf<Information>(contract, version, "station_information");
        const status = stationsOf<Status>(contract, version, "station_status");
        expect(status.map((s) => s.station_id)).toEqual(info.map((s) => s.station_id));
        expect(new Set(info.map((s) => s.station_id)).size).toBe(info.length);
      }
    }
    const total = feeds.reduce(
      (sum, c) => sum + stationsOf(c, "3.0", "station_information").length,
      0,
    );
    expect(total).toBe(dataset.stations.length);
  });

  it("counts only vehicle types of vehicle_types, each of them at every station, summing to the vehicles", () => {
    for (const contract of feeds) {
      for (const version of ["2.3", "3.0"] as const) {
        const types = (
          feedOf(contract, version, "vehicle_types").data as {
            vehicle_types: { vehicle_type_id: string }[];
          }
        ).vehicle_types.map((type) => type.vehicle_type_id);
        expect(types.length).toBeGreaterThan(0);
        for (const station of stationsOf<Status>(contract, version, "station_status")) {
          const counted = station.vehicle_types_available;
          expect(counted.map((c) => c.vehicle_type_id)).toEqual(types);
          const vehicles = station.num_vehicles_available ?? station.num_bikes_available;
          expect(counted.reduce((sum, c) => sum + c.count, 0)).toBe(vehicles);
        }
      }
    }
  });

  it("never counts more vehicles plus free docks than the station's capacity", () => {
    let checked = 0;
    for (const contract of feeds) {
      for (const version of ["2.3", "3.0"] as const) {
        const info = stationsOf<Information>(contract, version, "station_information");
        const capacity = new Map(info.map((s) => [s.station_id, s.capacity]));
        for (const station of stationsOf<Status>(contract, version, "station_status")) {
          const vehicles = station.num_vehicles_available ?? station.num_bikes_available ?? 0;
          expect(vehicles + station.num_docks_available).toBeLessThanOrEqual(
            capacity.get(station.station_id) as number,
          );
          checked++;
        }
      }
    }
    expect(checked).toBe(2 * dataset.stations.length);
  });

  it("gives the same stations and the same counts in v2.3 and v3.0", () => {
    for (const contract of feeds) {
      const v2 = stationsOf<Status>(contract, "2.3", "station_status");
      const v3 = stationsOf<Status>(contract, "3.0", "station_status");
      const comparable = ({ num_bikes_available, num_vehicles_available, ...rest }: Status) => {
        const { last_reported: _, ...counts } = rest as Status & { last_reported: unknown };
        return { vehicles: num_bikes_available ?? num_vehicles_available, ...counts };
      };
      expect(v3.map(comparable)).toEqual(v2.map(comparable));
      const capacities = (version: "2.3" | "3.0") =>
        stationsOf<Information>(contract, version, "station_information").map((s) => [
          s.station_id,
          s.capacity,
        ]);
      expect(capacities("3.0")).toEqual(capacities("2.3"));
    }
  });

  it("reports the same instants in both versions (POSIX seconds and RFC 3339)", () => {
    for (const contract of feeds) {
      const v2 = stationsOf<{ last_reported: number }>(contract, "2.3", "station_status");
      const v3 = stationsOf<{ last_reported: string }>(contract, "3.0", "station_status");
      expect(v3.map((s) => Date.parse(s.last_reported) / 1000)).toEqual(
        v2.map((s) => s.last_reported),
      );
    }
  });
});
