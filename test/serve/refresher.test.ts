import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { publish } from "../../src/publish/publish.js";
import { indexedRelease, type Release } from "../../src/publish/release.js";
import type { StationCache } from "../../src/publish/station-files.js";
import type { Live } from "../../src/serve/live.js";
import { startRefresher } from "../../src/serve/refresher.js";
import type { StateSource } from "../../src/serve/state-source.js";
import { stationKey } from "../../src/source/dataset.js";
import { fixtureDataset, GENERATED_AT } from "../publish/publish-helpers.js";

// A collection on demand: the only way to see that nothing keeps an object.
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

describe("the refresher", () => {
  it("keeps no reference to the first rendering once a refresh replaced it", async () => {
    const dataset = await fixtureDataset();
    // Every station changes: the first cache holds nothing the new one shares.
    const states = new Map(
      [...dataset.states].map(([key, state]) => [
        key,
        { ...state, lastUpdate: "2026-11-20T08:17:00Z" },
      ]),
    );
    const source: StateSource = {
      name: "test states",
      read: async () => ({ states, problems: [] }),
    };
    const { live, firstCache, refresher } = await started(source);
    expect((await refresher.refreshNow()).ok).toBe(true);
    await refresher.stop();
    expect(live.release.files.get("/vls/v3/stations/besancon/2")).toBeDefined();
    expect(states.get(stationKey("besancon", 2))).toBeDefined();
    // Collected in a later task: a WeakRef read in this one keeps its target until it ends.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(firstCache.deref()).toBeUndefined();
  });
});

/** A refresher started as `serve` starts it, holding only a weak reference to the first cache. */
async function started(source: StateSource) {
  const dataset = await fixtureDataset();
  const first = await publish(dataset, { generatedAt: GENERATED_AT });
  const live: Live = {
    release: first.release as Release,
    refreshSeconds: 3600,
    nextRefreshAt: null,
    lastRefresh: null,
  };
  live.release = indexedRelease(live.release);
  const refresher = startRefresher({
    live,
    dataset,
    cache: first.cache,
    staticFiles: new Map(),
    source,
    seconds: 3600,
    log: () => {},
  });
  return { live, refresher, firstCache: new WeakRef<StationCache>(first.cache) };
}
