// A refresh hashes the station_status entries of the stations it rendered again, and only those:
// the other entries' digests are kept from the run before (a server at a million stations would
// otherwise hash 2,000,000 entries a minute).
import { describe, expect, it, vi } from "vitest";
import { publish } from "../../src/publish/publish.js";
import { refreshRelease } from "../../src/publish/refresh-release.js";
import { type Dataset, stationKey } from "../../src/source/dataset.js";
import { fixtureDataset, GENERATED_AT } from "./publish-helpers.js";

const hashed = vi.hoisted(() => ({ entries: 0 }));
vi.mock("../../src/publish/sha1.js", async (original) => {
  const real = await original<typeof import("../../src/publish/sha1.js")>();
  return {
    ...real,
    oneShotSha1Latin1: (bytes: Uint8Array) => {
      hashed.entries++;
      return real.oneShotSha1Latin1(bytes);
    },
  };
});

function withChangedStations(dataset: Dataset, numbers: readonly number[]): Dataset {
  const states = new Map(dataset.states);
  for (const number of numbers) {
    const key = stationKey("besancon", number);
    const old = states.get(key);
    if (!old) throw new Error(`fixture state missing: ${key}`);
    states.set(key, {
      ...old,
      lastUpdate: "2026-11-20T08:17:00Z",
      main: { ...old.main, stands: 9 },
    });
  }
  return { ...dataset, states };
}

describe("a refresh's station_status digests", () => {
  it("are made for every entry by a publish, then for the stations rendered again", async () => {
    const dataset = await fixtureDataset();
    hashed.entries = 0;
    const first = await publish(dataset, { generatedAt: GENERATED_AT });
    // Two GBFS versions, an entry each per station.
    expect(hashed.entries).toBe(2 * dataset.stations.length);
    hashed.entries = 0;
    const timing = { generatedAt: new Date("2026-11-20T08:17:00Z"), refreshSeconds: 60 };
    const next = withChangedStations(dataset, [2, 3]);
    const refreshed = await refreshRelease(first.release, next, first.cache, timing);
    expect(refreshed?.changed.has("/contracts/besancon/gbfs/v3/station_status.json")).toBe(true);
    expect(hashed.entries).toBe(2 * 2);
  });
});
