// A server refresh: the served release with only the changed station answers replaced gives the
// same answers as a whole publish of the new states, and keeps every other file as it was served.
import { describe, expect, it } from "vitest";
import { publish } from "../../src/publish/publish.js";
import { refreshRelease } from "../../src/publish/refresh-release.js";
import { makeRelease, type Release, withVariants } from "../../src/publish/release.js";
import { type Dataset, stationKey } from "../../src/source/dataset.js";
import { fixtureDataset, GENERATED_AT } from "./publish-helpers.js";

const LATER = new Date("2026-11-20T08:17:00Z");
const TIMING = { generatedAt: LATER, refreshSeconds: 60 };
// The first publish, whose static answers (the bundle and the portal dated by the static source's
// change) every later whole publish of the same static data repeats.
const FIRST = { generatedAt: GENERATED_AT, staticUpdatedAt: GENERATED_AT };

/** The release as a server holds it after compressing: every file with (stand-in) variants. */
function served(release: Release): Release {
  const variants = { gzip: Buffer.from("gzip"), br: Buffer.from("br") };
  const files = new Map(
    [...release.files].map(([path, file]) => [path, withVariants(file, variants)]),
  );
  return makeRelease(files, release.counts, release.generatedAt, [...release.contracts.values()]);
}

function withChangedStation(dataset: Dataset): Dataset {
  const key = stationKey("besancon", 2);
  const states = new Map(dataset.states);
  const old = states.get(key);
  if (!old) throw new Error("fixture state missing");
  states.set(key, { ...old, lastUpdate: "2026-11-20T08:17:00Z", main: { ...old.main, stands: 9 } });
  return { ...dataset, states };
}

describe("refreshRelease", () => {
  it("answers what a whole publish answers, replacing only the changed files", async () => {
    const dataset = await fixtureDataset();
    const first = await publish(dataset, FIRST);
    const before = served(first.release);
    const next = withChangedStation(dataset);
    const refreshed = await refreshRelease(before, next, first.cache, TIMING);
    if (!refreshed) throw new Error("the cache was made for these stations");
    // The static answers are dated by the static source, which did not change.
    const at = { generatedAt: LATER, staticUpdatedAt: GENERATED_AT };
    const whole = (await publish(next, at)).release;

    expect([...refreshed.release.files.keys()].sort()).toEqual([...whole.files.keys()].sort());
    for (const [path, file] of whole.files) {
      const got = refreshed.release.files.get(path);
      expect(got?.etag, path).toBe(file.etag);
      expect(Buffer.concat(got?.body ?? []).equals(Buffer.concat(file.body)), path).toBe(true);
    }
    expect(refreshed.release.id).toBe(whole.id);
    expect([...refreshed.changed.keys()].sort()).toEqual([
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
    for (const [path, file] of refreshed.release.files) {
      if (refreshed.changed.has(path)) expect(file.variants, path).toBeUndefined();
      else expect(file, path).toBe(before.files.get(path));
    }
    // And the next refresh starts from this one's cache.
    const again = await refreshRelease(refreshed.release, next, refreshed.cache, TIMING);
    expect(again?.changed.size).toBe(0);
    expect(again?.release.id).toBe(whole.id);
  });

  it("dates every contract's station_status anew when the states were known later, changed or not", async () => {
    const dataset = { ...(await fixtureDataset()), statesAt: new Date("2026-11-20T08:16:00Z") };
    const first = await publish(dataset, FIRST);
    const before = served(first.release);
    const statusPaths = [...before.files.keys()].filter((path) =>
      path.endsWith("/station_status.json"),
    );
    // The same states known at the same time: nothing to do.
    const same = await refreshRelease(before, { ...dataset }, first.cache, TIMING);
    expect([...(same?.changed.keys() ?? ["no refresh"])]).toEqual([]);
    // Known a minute later, no station changed: every station_status says so, nothing else moves.
    const later = { ...dataset, statesAt: new Date("2026-11-20T08:17:00Z") };
    const refreshed = await refreshRelease(before, later, first.cache, TIMING);
    expect([...(refreshed?.changed.keys() ?? [])].sort()).toEqual(statusPaths.sort());
    const whole = await publish(later, { generatedAt: LATER, staticUpdatedAt: GENERATED_AT });
    for (const path of statusPaths)
      expect(Buffer.concat(refreshed?.release.files.get(path)?.body ?? []), path).toEqual(
        Buffer.concat(whole.release.files.get(path)?.body ?? []),
      );
  });

  it("keeps the served file, with its variants, of an answer rendered again with the same bytes", async () => {
    const dataset = await fixtureDataset();
    const first = await publish(dataset, FIRST);
    const before = served(first.release);
    const key = stationKey("besancon", 2);
    const states = new Map(dataset.states);
    const old = states.get(key);
    if (!old) throw new Error("fixture state missing");
    // v1 has no `connected`: its answers come out of the render with the bytes they had.
    states.set(key, { ...old, connected: !old.connected });
    const refreshed = await refreshRelease(before, { ...dataset, states }, first.cache, TIMING);
    if (!refreshed) throw new Error("the cache was made for these stations");
    expect(refreshed.changed.has("/vls/v3/stations/besancon/2")).toBe(true);
    for (const path of ["/vls/v1/stations/besancon/2", "/vls/v1/stations/besancon"]) {
      expect(refreshed.changed.has(path), path).toBe(false);
      expect(refreshed.release.files.get(path), path).toBe(before.files.get(path));
    }
  });

  it("stays what a whole publish answers over successive refreshes", async () => {
    const dataset = await fixtureDataset();
    const first = await publish(dataset, FIRST);
    let release = served(first.release);
    let cache = first.cache;
    let states = dataset.states;
    for (let round = 1; round <= 4; round++) {
      // Every station whose number falls on this round's step changes: runs of changed and
      // unchanged entries of every length, the first and last of a contract among them.
      const next = new Map(states);
      for (const [key, state] of states) {
        const number = Number(key.split("/")[1]);
        if ((number + round) % (round + 1) !== 0) continue;
        next.set(key, {
          ...state,
          lastUpdate: `2026-11-20T08:${String(16 + round).padStart(2, "0")}:00Z`,
          main: { ...state.main, stands: state.main.stands + round },
        });
      }
      states = next;
      const dataset2 = { ...dataset, states };
      const at = new Date(LATER.getTime() + round * 60_000);
      const refreshed = await refreshRelease(release, dataset2, cache, {
        ...TIMING,
        generatedAt: at,
      });
      if (!refreshed) throw new Error("the cache was made for these stations");
      const whole = (await publish(dataset2, { generatedAt: at, staticUpdatedAt: GENERATED_AT }))
        .release;
      for (const [path, file] of whole.files) {
        const got = refreshed.release.files.get(path);
        expect(got?.etag, `${path} at round ${round}`).toBe(file.etag);
        expect(Buffer.concat(got?.body ?? []).equals(Buffer.concat(file.body)), path).toBe(true);
      }
      expect(refreshed.release.id).toBe(whole.id);
      release = refreshed.release;
      cache = refreshed.cache;
    }
  });

  it("works in steps, one contract at a time, pausing between two for the caller", async () => {
    const dataset = await fixtureDataset();
    const first = await publish(dataset, FIRST);
    const next = withChangedStation(dataset);
    let pauses = 0;
    const pause = async () => {
      pauses++;
    };
    const stepped = await refreshRelease(first.release, next, first.cache, { ...TIMING, pause });
    const whole = await refreshRelease(first.release, next, first.cache, TIMING);
    // After each contract, and once more before the new release is assembled.
    expect(pauses).toBe(dataset.contracts.length + 1);
    expect(stepped?.release.id).toBe(whole?.release.id);
  });

  it("declines a cache made for other stations: the caller publishes the whole release", async () => {
    const dataset = await fixtureDataset();
    const first = await publish(dataset, FIRST);
    const other = { ...dataset, stations: [...dataset.stations] };
    expect(await refreshRelease(first.release, other, first.cache, TIMING)).toBeUndefined();
  });
});
