import { describe, expect, it } from "vitest";
import { publish } from "../../src/publish/publish.js";
import { indexedRelease, type Release } from "../../src/publish/release.js";
import type { StationCache } from "../../src/publish/station-files.js";
import { type Live, statusOf } from "../../src/serve/live.js";
import { startRefresher } from "../../src/serve/refresher.js";
import type { StateSource } from "../../src/serve/state-source.js";
import { stationKey } from "../../src/source/dataset.js";
import { collectGarbage } from "../helpers.js";
import { fixtureDataset, GENERATED_AT } from "../publish/publish-helpers.js";

describe("the refresher", () => {
  it("says a refresh that outlasts its period, and stops without it after the wait given", async () => {
    // A states file on a stalled mount: its read never ends.
    const source: StateSource = { name: "stalled states", read: () => new Promise(() => {}) };
    const { live, refresher, lines, said } = await started(source, 1);
    void refresher.refreshNow();
    await said("refresh from stalled states still running after 1 s");
    // Late by more than its period: /status is no longer ok.
    live.refreshSeconds = 1;
    live.nextRefreshAt = new Date(Date.now() - 2_000);
    expect(statusOf(live, new Date())).toMatchObject({ ok: false, refreshLateSeconds: 2 });
    const stopping = Date.now();
    await refresher.stop(100);
    expect(Date.now() - stopping).toBeLessThan(1_000);
    expect(lines).toContain(
      "stopping without the refresh from stalled states, still running after 0.1 s",
    );
  });

  it("says a system error of the states read as the system's, not as a bug", async () => {
    // The states file's folder closed to the server: its stat throws, EACCES.
    const denied = Object.assign(
      new Error("EACCES: permission denied, stat '/srv/feed/states.json'"),
      { code: "EACCES", syscall: "stat", path: "/srv/feed/states.json" },
    );
    const source: StateSource = { name: "closed states", read: () => Promise.reject(denied) };
    const { refresher, lines } = await started(source);
    const outcome = await refresher.refreshNow();
    const said = "permission denied on /srv/feed/states.json: check its owner and mode";
    expect(outcome).toMatchObject({ ok: false, error: said });
    expect(lines).toEqual([expect.stringMatching(`^refresh failed: ${said}; keeping release `)]);
    await refresher.stop(100);
  });

  it("keeps to its period: a refresh that takes a while does not push the next ones later", async () => {
    const dataset = await fixtureDataset();
    const due: number[] = [];
    let live: Live | undefined;
    const source: StateSource = {
      name: "slow states",
      read: async () => {
        due.push(live?.nextRefreshAt?.getTime() ?? Number.NaN);
        // A states file on a slow disk: half the period.
        await new Promise((resolve) => setTimeout(resolve, 500));
        return { states: dataset.states, problems: [] };
      },
    };
    const running = await started(source, 1);
    live = running.live;
    const first = live.nextRefreshAt?.getTime() as number;
    await new Promise<void>((resolve) => {
      const waiting = setInterval(() => {
        if (due.length >= 3) {
          clearInterval(waiting);
          resolve();
        }
      }, 50);
    });
    await running.refresher.stop();
    // Each refresh starts a period after the one before was due, not after it ended.
    expect(due.slice(0, 3)).toEqual([first, first + 1000, first + 2000]);
  });

  it("refreshes a period after the clock was set back, not a period after the time it left", async () => {
    const dataset = await fixtureDataset();
    const startedAt = Date.parse("2026-11-20T08:00:00Z");
    const setBackTo = startedAt - 3_600_000;
    let clock = startedAt;
    let reads = 0;
    let secondDue: (due: number | undefined) => void = () => {};
    const second = new Promise<number | undefined>((resolve) => {
      secondDue = resolve;
    });
    const source: StateSource = {
      name: "test states",
      read: async () => {
        reads++;
        // NTP steps the clock back an hour during the first refresh.
        if (reads === 1) clock = setBackTo;
        if (reads === 2) secondDue(live.nextRefreshAt?.getTime());
        return { states: dataset.states, problems: [] };
      },
    };
    const { live, refresher } = await started(source, 1, () => new Date(clock));
    expect(live.nextRefreshAt?.getTime()).toBe(startedAt + 1000);
    // Due a period after the clock's new time: the hour it went back is not waited for (the test
    // times out if it is).
    expect(await second).toBe(setBackTo + 1000);
    await refresher.stop();
  });

  it("starts its period again from a refresh out of turn (SIGHUP), and not from one in turn", async () => {
    const dataset = await fixtureDataset();
    const startedAt = Date.parse("2026-11-20T08:00:00Z");
    let clock = startedAt;
    const source: StateSource = {
      name: "test states",
      read: async () => ({ states: dataset.states, problems: [] }),
    };
    const { live, refresher } = await started(source, 60, () => new Date(clock));
    expect(live.nextRefreshAt?.getTime()).toBe(startedAt + 60_000);
    // An operator's reload 20 s into the period: due now while it runs (the answers it replaces
    // expire now), and what it publishes expires a period later.
    clock = startedAt + 20_000;
    const reloading = refresher.refreshOutOfTurn();
    expect(live.nextRefreshAt?.getTime()).toBe(clock);
    expect((await reloading).ok).toBe(true);
    expect(live.nextRefreshAt?.getTime()).toBe(startedAt + 80_000);
    // A refresh in turn keeps to the period.
    clock = startedAt + 30_000;
    expect((await refresher.refreshNow()).ok).toBe(true);
    expect(live.nextRefreshAt?.getTime()).toBe(startedAt + 80_000);
    await refresher.stop();
  });

  it("runs a refresh out of turn (SIGHUP) asked while one is under way once that one ends", async () => {
    // The refresh under way may have looked at the static source before the edit the reload is
    // for: one more runs after it, the same one for every reload asked meanwhile.
    const dataset = await fixtureDataset();
    let reads = 0;
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const source: StateSource = {
      name: "test states",
      read: async () => {
        reads++;
        if (reads === 1) await held;
        return { states: dataset.states, problems: [] };
      },
    };
    const { refresher } = await started(source);
    const underWay = refresher.refreshNow();
    const reloads = [refresher.refreshOutOfTurn(), refresher.refreshOutOfTurn()];
    release();
    expect((await underWay).ok).toBe(true);
    for (const reload of reloads) expect((await reload).ok).toBe(true);
    expect(reads).toBe(2);
    await refresher.stop();
  });

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
    // A collection on demand, in a later task (see collectGarbage): the only way to see that
    // nothing keeps an object.
    await collectGarbage();
    expect(firstCache.deref()).toBeUndefined();
  });
});

/** A refresher started as `serve` starts it, holding only a weak reference to the first cache. */
async function started(source: StateSource, seconds = 3600, now?: () => Date) {
  const lines: string[] = [];
  const awaited = new Map<string, () => void>();
  /** Resolves once `line` is logged. */
  const said = (line: string) =>
    lines.includes(line)
      ? Promise.resolve()
      : new Promise<void>((resolve) => awaited.set(line, resolve));
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
    seconds,
    ...(now ? { now } : {}),
    log: (line) => {
      lines.push(line);
      awaited.get(line)?.();
    },
  });
  return { live, refresher, lines, said, firstCache: new WeakRef<StationCache>(first.cache) };
}
