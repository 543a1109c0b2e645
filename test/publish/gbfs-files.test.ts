import { describe, expect, it } from "vitest";
import { gbfsUrls, newestReport } from "../../src/publish/gbfs-files.js";
import { NEVER_REPORTED_AT } from "../../src/publish/render/gbfs/station-status.js";
import { fixtureDataset } from "./publish-helpers.js";

describe("GBFS URLs and files", () => {
  it("builds absolute URLs from the route table under the base URL, a path prefix kept", () => {
    const urls = gbfsUrls("https://bikes.example.org/velodata/");
    expect(urls.feed("dublin", "2.3", "gbfs")).toBe(
      "https://bikes.example.org/velodata/contracts/dublin/gbfs/gbfs.json",
    );
    // Discovery files name the root form of the v2.3 feeds, the one the original operator lists.
    expect(urls.feed("dublin", "2.3", "station_status")).toBe(
      "https://bikes.example.org/velodata/contracts/dublin/gbfs/station_status.json",
    );
    expect(urls.feed("lyon", "3.0", "vehicle_types")).toBe(
      "https://bikes.example.org/velodata/contracts/lyon/gbfs/v3/vehicle_types.json",
    );
    expect(urls.manifest()).toBe("https://bikes.example.org/velodata/gbfs/manifest.json");
  });

  it("dates station_status by the newest report of the contract's stations", async () => {
    const dataset = await fixtureDataset();
    const dublin = dataset.stations.filter((station) => station.contract === "dublin");
    expect(newestReport(dublin, dataset.states).toISOString()).toBe("2025-02-08T16:51:27.000Z");
    expect(newestReport(dublin, new Map())).toBe(NEVER_REPORTED_AT);
  });
});
