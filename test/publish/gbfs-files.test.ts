import { describe, expect, it } from "vitest";
import { gbfsUrls, newestReport } from "../../src/publish/gbfs-files.js";
import { publish } from "../../src/publish/publish.js";
import { renderGbfsStatus } from "../../src/publish/render/gbfs/contract-feeds.js";
import { NEVER_REPORTED_AT } from "../../src/publish/render/gbfs/station-status.js";
import { encodeJson } from "../../src/publish/render/json-body.js";
import { fixtureDataset, GENERATED_AT } from "./publish-helpers.js";

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

  it("assembles station_status from each station's entry: the bytes of the whole feed rendered at once", async () => {
    const dataset = await fixtureDataset();
    const { release } = await publish(dataset, { generatedAt: GENERATED_AT });
    for (const contract of dataset.contracts) {
      const own = dataset.stations.filter((station) => station.contract === contract.name);
      const freshness = { lastUpdated: newestReport(own, dataset.states), ttl: 60 };
      const [v2, v3] = renderGbfsStatus(contract, own, dataset.states, freshness);
      for (const [path, rendered] of [
        [`/contracts/${contract.name}/gbfs/station_status.json`, v2],
        [`/contracts/${contract.name}/gbfs/v3/station_status.json`, v3],
      ] as const) {
        const body = Buffer.concat(release.files.get(path)?.body ?? []);
        expect(body.toString(), path).toBe(encodeJson(rendered?.body).toString());
      }
    }
  });
});
