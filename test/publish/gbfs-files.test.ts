import { describe, expect, it } from "vitest";
import type { Station } from "../../src/model/station.js";
import { gbfsUrls } from "../../src/publish/gbfs-files.js";
import { publish } from "../../src/publish/publish.js";
import type { Release } from "../../src/publish/release.js";
import { renderGbfsStatus } from "../../src/publish/render/gbfs/contract-feeds.js";
import { timestamp } from "../../src/publish/render/gbfs/feed.js";
import { NEVER_REPORTED_AT } from "../../src/publish/render/gbfs/station-status.js";
import { encodeJson } from "../../src/publish/render/json-body.js";
import { type LiveState, stationKey } from "../../src/source/dataset.js";
import { fixtureDataset, GENERATED_AT, json } from "./publish-helpers.js";

/** The oracle: the latest report of these stations, by date (the renderer compares texts). */
function newestOf(stations: readonly Station[], states: ReadonlyMap<string, LiveState>): Date {
  const times = stations
    .map((station) => states.get(stationKey(station.contract, station.number))?.lastUpdate)
    .filter((reported): reported is string => Boolean(reported))
    .map((reported) => Date.parse(reported));
  return times.length === 0 ? NEVER_REPORTED_AT : new Date(Math.max(...times));
}

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

  it("dates station_status by when the states were known; without that time, by the newest report", async () => {
    const { statesAt: _, ...undated } = await fixtureDataset();
    const lastUpdated = (release: Release, contract = "dublin") =>
      (
        json(release, `/contracts/${contract}/gbfs/v3/station_status.json`) as {
          last_updated: string;
        }
      ).last_updated;
    const knownAt = new Date("2026-11-20T08:17:42.900Z");
    const dated = await publish({ ...undated, statesAt: knownAt }, { generatedAt: GENERATED_AT });
    for (const { name } of undated.contracts)
      expect(lastUpdated(dated.release, name), name).toBe("2026-11-20T08:17:42Z");
    const { release } = await publish(undated, { generatedAt: GENERATED_AT });
    expect(lastUpdated(release)).toBe("2025-02-08T16:51:27Z");
    const silent = await publish({ ...undated, states: new Map() }, { generatedAt: GENERATED_AT });
    expect(lastUpdated(silent.release)).toBe(timestamp("3.0", NEVER_REPORTED_AT));
  });

  it("assembles station_status from each station's entry: the bytes of the whole feed rendered at once", async () => {
    const dataset = await fixtureDataset();
    const { release } = await publish(dataset, { generatedAt: GENERATED_AT });
    for (const contract of dataset.contracts) {
      const own = dataset.stations.filter((station) => station.contract === contract.name);
      const lastUpdated = dataset.statesAt
        ? new Date(Math.floor(dataset.statesAt.getTime() / 1000) * 1000)
        : newestOf(own, dataset.states);
      const freshness = { lastUpdated, ttl: 60 };
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
