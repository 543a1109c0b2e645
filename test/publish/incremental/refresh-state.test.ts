// Where the cron refresh's state says each station's entry sits in its contract's station_status
// feeds: at those bytes, each version, whatever order the feed gives the entries in.
import { describe, expect, it } from "vitest";
import type { Station } from "../../../src/model/station.js";
import { pathOfStatus, refreshStateOf } from "../../../src/publish/incremental/refresh-state.js";
import { holdsState } from "../../../src/publish/incremental/state-columns.js";
import { publish } from "../../../src/publish/publish.js";
import type { ReleaseFile } from "../../../src/publish/release.js";
import { GBFS_VERSIONS } from "../../../src/publish/render/gbfs/feed.js";
import { type StationCache, SURFACES } from "../../../src/publish/station-files.js";
import type { Dataset } from "../../../src/source/dataset.js";
import { readStatic } from "../../../src/source/read-dataset.js";
import { stationKey } from "../../../src/source/rules/states.js";
import { withFields } from "../../../src/with-fields.js";
import { FIXTURES } from "../../helpers.js";
import { fixtureDataset, GENERATED_AT } from "../publish-helpers.js";

async function stateOf(reorder: (body: readonly Uint8Array[]) => Uint8Array[], dataset?: Dataset) {
  dataset ??= await fixtureDataset();
  const { release, cache } = await publish(dataset, { generatedAt: GENERATED_AT });
  const gbfsStatus = new Map(
    [...cache.gbfsStatus].map(([contract, files]) => [
      contract,
      new Map(
        [...files].map(([path, file]): [string, ReleaseFile] => [
          path,
          withFields(file, { body: reorder(file.body) }),
        ]),
      ),
    ]),
  );
  const stations: StationCache = { ...cache, gbfsStatus };
  const staticRead = await readStatic(FIXTURES);
  const state = refreshStateOf({
    release,
    baseUrl: "https://api.example.org",
    refreshSeconds: 60,
    source: "fingerprint",
    staticSource: staticRead.source,
    dataset,
    stations,
    surfaces: SURFACES.length,
  });
  return { dataset, gbfsStatus, state, rendered: cache.inOrder?.rendered ?? [] };
}

/** Each station's bytes at the place the state gives, against its own entry. */
async function expectEntriesFound(reorder: (body: readonly Uint8Array[]) => Uint8Array[]) {
  const { dataset, gbfsStatus, state, rendered } = await stateOf(reorder);
  expect(rendered).toHaveLength(dataset.stations.length);
  let checked = 0;
  dataset.stations.forEach((station, index) => {
    GBFS_VERSIONS.forEach((version, versionIndex) => {
      const file = gbfsStatus.get(station.contract)?.get(pathOfStatus(station.contract, version));
      const start = state.statusStarts[versionIndex]?.[index] as number;
      const size = state.statusSizes[versionIndex]?.[index] as number;
      const bytes = Buffer.concat(file?.body ?? []).subarray(start, start + size);
      expect(start).toBeGreaterThan(0);
      expect(bytes.equals(rendered[index]?.status?.[versionIndex] as Uint8Array)).toBe(true);
      checked++;
    });
  });
  expect(checked).toBeGreaterThan(10);
}

describe("the refresh state's places in station_status", () => {
  it("finds each station's entry in the feeds as rendered", async () => {
    await expectEntriesFound((body) => [...body]);
  });

  it("finds them when a feed gives the entries in another order", async () => {
    // Reversed: header and footer swap ends, each entry stays whole.
    await expectEntriesFound((body) => [...body].reverse());
  });
});

describe("the refresh state's columns", () => {
  it("hold each station's state, and none for a station that never reported", async () => {
    const fixtures = await fixtureDataset();
    // The first station never reported.
    const first = fixtures.stations[0] as Station;
    const states = new Map(fixtures.states);
    states.delete(stationKey(first.contract, first.number));
    const { dataset, state } = await stateOf((body) => [...body], { ...fixtures, states });
    let reported = 0;
    dataset.stations.forEach((station, index) => {
      const live = dataset.states.get(stationKey(station.contract, station.number));
      if (live) reported++;
      expect(holdsState(state.states, index, live)).toBe(true);
    });
    expect(reported).toBeGreaterThan(0);
    expect(reported).toBeLessThan(dataset.stations.length);
  });
});
