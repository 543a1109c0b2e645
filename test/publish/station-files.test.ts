import { describe, expect, it } from "vitest";
import { publish } from "../../src/publish/publish.js";
import type { RenderedStation } from "../../src/publish/station-files.js";
import { type LiveState, stationKey } from "../../src/source/dataset.js";
import { fixtureDataset, GENERATED_AT, text } from "./publish-helpers.js";

// The station a second publish finds changed.
const CHANGED = stationKey("besancon", 2);

/** The fixtures published, then again from the first's cache with CHANGED's state changed. */
async function publishedTwice(change: (old: LiveState) => LiveState) {
  const dataset = await fixtureDataset();
  const first = await publish(dataset, { generatedAt: GENERATED_AT });
  const states = new Map(dataset.states);
  const old = states.get(CHANGED);
  if (!old) throw new Error("fixture state missing");
  states.set(CHANGED, change(old));
  const second = await publish(
    { ...dataset, states },
    { generatedAt: GENERATED_AT, cache: first.cache },
    first.release.files,
  );
  return { first, second };
}

describe("incremental publishing", () => {
  it("reuses every rendering when no state changed, and the release id stays the same", async () => {
    const dataset = await fixtureDataset();
    const first = await publish(dataset, { generatedAt: GENERATED_AT });
    const second = await publish(
      dataset,
      { generatedAt: new Date(), cache: first.cache },
      first.release.files,
    );
    for (const [path, file] of first.release.files)
      expect(second.release.files.get(path)).toBe(file);
    expect(second.release.id).toBe(first.release.id);
  });

  it("renders again only the changed station, its contract's list and GBFS station_status, and the list of all", async () => {
    const { first, second } = await publishedTwice((old) => ({
      ...old,
      lastUpdate: "2026-11-20T08:17:00Z",
      main: { ...old.main, bikes: 2, mechanicalBikes: 2, stands: 9 },
    }));

    const changed = [...second.release.files]
      .filter(([path, file]) => first.release.files.get(path) !== file)
      .map(([path]) => path);
    expect(changed.sort()).toEqual([
      "/contracts/besancon/gbfs/station_status.json",
      "/contracts/besancon/gbfs/v2/station_status.json",
      "/contracts/besancon/gbfs/v3/station_status.json",
      "/vls/v1/stations",
      "/vls/v1/stations/besancon",
      "/vls/v1/stations/besancon/2",
      "/vls/v3/stations",
      "/vls/v3/stations/besancon",
      "/vls/v3/stations/besancon/2",
    ]);
    expect(second.release.files.get("/vls/v3/stations/besancon/2")?.etag).not.toBe(
      first.release.files.get("/vls/v3/stations/besancon/2")?.etag,
    );
    expect(JSON.parse(text(second.release, "/vls/v1/stations/besancon/2"))).toMatchObject({
      available_bikes: 2,
      available_bike_stands: 9,
      last_update: Date.parse("2026-11-20T08:17:00Z"),
    });
    expect(second.release.id).not.toBe(first.release.id);
  });
});

// A station's answers are replaced together: they share a buffer with no other station's.
const chunksOf = (rendered: RenderedStation): Uint8Array[] => [
  ...rendered.files.map((file) => file.body[0] as Uint8Array),
  ...(rendered.status ?? []),
];

describe("the buffers of station answers", () => {
  it("holds each rendered station's answers and GBFS entries in one buffer of their own", async () => {
    const { first, second } = await publishedTwice((old) => ({
      ...old,
      lastUpdate: "2026-11-20T08:17:00Z",
    }));
    const owners = new Map<ArrayBufferLike, string>();
    for (const [stationAt, rendered] of second.cache.stations) {
      const chunks = chunksOf(rendered);
      expect(chunks.length).toBeGreaterThan(2);
      const size = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
      for (const chunk of chunks) {
        expect(chunk.buffer.byteLength).toBe(size);
        expect(owners.get(chunk.buffer) ?? stationAt).toBe(stationAt);
        owners.set(chunk.buffer, stationAt);
      }
    }
    expect(owners.size).toBe(second.cache.stations.size);
    // The one station rendered again has a new buffer; the others kept theirs.
    const before = first.cache.stations.get(CHANGED) as RenderedStation;
    const after = second.cache.stations.get(CHANGED) as RenderedStation;
    expect(chunksOf(after)[0]?.buffer).not.toBe(chunksOf(before)[0]?.buffer);
  });
});

describe("the station answers handed over as they are made", () => {
  it("gives each contract's answers on their own, then the lists of all, each once", async () => {
    const dataset = await fixtureDataset();
    const given: string[][] = [];
    const { release } = await publish(dataset, {
      generatedAt: GENERATED_AT,
      onStationFiles: (files) => {
        given.push([...files].map(([path]) => path));
      },
    });
    const contracts = dataset.contracts.filter((contract) =>
      dataset.stations.some((station) => station.contract === contract.name),
    );
    // One hand-over per contract, holding only its own answers, and one for the lists of all.
    expect(given).toHaveLength(contracts.length + 1);
    contracts.forEach((contract, index) => {
      const paths = given[index] ?? [];
      expect(paths).toContain(`/vls/v3/stations/${contract.name}`);
      expect(paths.every((path) => path.split("/").includes(contract.name))).toBe(true);
    });
    expect(given.at(-1)).toEqual(["/vls/v3/stations", "/vls/v1/stations"]);
    // Every station answer of the release was handed over, none twice.
    const handed = given.flat();
    expect(new Set(handed).size).toBe(handed.length);
    for (const path of release.files.keys())
      if (/^\/vls\/v[13]\/stations(\/|$)/.test(path)) expect(handed).toContain(path);
  });
});
