// /status tells a stalled or shrinking feed apart from a healthy one; a feed that drops stations is refused.
import { readFile, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { getHeapStatistics } from "node:v8";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ServerStatus } from "../../src/model/server-status.js";
import { startTestServer, type TestServer } from "./serve-helpers.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.handle.stop();
  server = undefined;
});

interface Status {
  ok: boolean;
  release: string;
  lastRefresh: { ok: boolean; error: string | null } | null;
  feed: {
    ok: boolean;
    newestLastUpdate: string | null;
    newestAgeSeconds: number | null;
    missingStations: number;
    staleMinutes: number;
    staleStations: number;
    staleShare: number;
    maxStaleShare: number;
  };
  memory: { rssBytes: number; heapUsedBytes: number; heapLimitBytes: number };
}

/** The document, and the HTTP status it came with (503 exactly when `ok` is false). */
async function statusOf(base: string): Promise<Status> {
  const response = await fetch(`${base}/status`);
  const status = (await response.json()) as Status;
  expect(response.status).toBe(status.ok ? 200 : 503);
  // As the OpenAPI document describes it, every field (a client generated from it sees them all).
  expect(z.strictObject(ServerStatus.shape).safeParse(status).error).toBeUndefined();
  return status;
}

type StatesFile = {
  states: { lastUpdate: string | null; contract: string; number: number; status?: string }[];
};

async function rewriteStates(source: string, edit: (file: StatesFile) => void): Promise<void> {
  const path = join(source, "states.json");
  const file = JSON.parse(await readFile(path, "utf8")) as StatesFile;
  edit(file);
  await writeFile(path, JSON.stringify(file));
}

describe("/status", () => {
  it("shows a stalled feed: the age of the newest lastUpdate, the stale share, ok false", async () => {
    server = await startTestServer();
    // The fixtures were recorded on 2026-11-20; by now every station is stale.
    const status = await statusOf(server.base);
    expect(status.feed).toMatchObject({
      newestLastUpdate: "2026-11-20T08:15:05.000Z",
      missingStations: 0,
      staleMinutes: 15,
      staleStations: 413,
      staleShare: 1,
      maxStaleShare: 0.25,
      ok: false,
    });
    const expectedAge = (Date.now() - Date.parse("2026-11-20T08:15:05Z")) / 1000;
    expect(Math.abs((status.feed.newestAgeSeconds as number) - expectedAge)).toBeLessThan(30);
    expect(status.ok).toBe(false);
  });

  it("shows the memory: the process's resident set, the serving heap and its limit", async () => {
    server = await startTestServer();
    const before = process.memoryUsage.rss();
    const { memory } = await statusOf(server.base);
    const after = process.memoryUsage.rss();
    // This server runs in the test's own thread: its heap is this one.
    expect(memory.heapLimitBytes).toBe(getHeapStatistics().heap_size_limit);
    expect(memory.heapUsedBytes).toBeGreaterThan(0);
    expect(memory.heapUsedBytes).toBeLessThan(memory.heapLimitBytes);
    // The resident set moves between readings: it lies near the test's, read around the request.
    expect(memory.rssBytes).toBeGreaterThan(Math.min(before, after) * 0.9);
    expect(memory.rssBytes).toBeLessThan(Math.max(before, after) * 1.1);
  });

  // `npm start` serves the old fixtures with the simulator: the demo must look live from the start.
  it("is ok from the start with the simulator, though the fixtures' lastUpdate are old", async () => {
    // A step of one minute, as `npm start` simulates (the test server's hour would move every station).
    server = await startTestServer({ simulate: true, seed: 3, refresh: 60 });
    const status = await statusOf(server.base);
    expect(status.feed).toMatchObject({ staleStations: expect.any(Number), ok: true });
    expect(status.feed.staleShare).toBeLessThanOrEqual(0.25);
    // Stamped one refresh period (60 s) back, as a live feed's data is.
    expect(status.feed.newestAgeSeconds).toBeLessThanOrEqual(65);
    expect(status.ok).toBe(true);
    // Known at the start, not a minute back: GBFS's last_updated plus its ttl is the first refresh.
    const feed = (await (
      await fetch(`${server.base}/contracts/dublin/gbfs/v3/station_status.json`)
    ).json()) as { last_updated: string; ttl: number };
    expect(Date.parse(feed.last_updated) + feed.ttl * 1000).toBeGreaterThan(Date.now());
  });

  it("fails an If-Match naming a tag (it has none), holds `*`, and ignores it when not ok", async () => {
    server = await startTestServer({ simulate: true, seed: 3, refresh: 60 });
    const asked = (ifMatch: string) =>
      fetch(`${server?.base}/status`, { headers: { "If-Match": ifMatch } });
    const failed = await asked('"zz"');
    expect(failed.status).toBe(412);
    expect(await failed.json()).toEqual({ error: "Precondition Failed" });
    expect((await asked("*")).status).toBe(200);
    await server.handle.stop();
    // The fixtures' old states: not ok, 503 whatever the precondition (RFC 9110 §13.2.1).
    server = await startTestServer();
    expect((await asked('"zz"')).status).toBe(503);
  });

  it("is ok when the feed reports every station within the last minutes", async () => {
    server = await startTestServer();
    const recent = new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, "Z");
    await rewriteStates(server.source, (file) => {
      for (const state of file.states) state.lastUpdate = recent;
      // 100 of 413 (24%) stale: still under the 25% threshold.
      for (const state of file.states.slice(0, 100)) state.lastUpdate = "2026-01-01T00:00:00Z";
    });
    expect((await server.handle.refreshNow()).ok).toBe(true);
    const status = await statusOf(server.base);
    expect(status.feed).toMatchObject({ staleStations: 100, staleShare: 0.242, ok: true });
    expect(status.feed.newestLastUpdate).toBe(recent.replace("Z", ".000Z"));
    expect(status.ok).toBe(true);
  });

  it("logs a stalled feed once when /status turns not ok, and once when it is fresh again", async () => {
    server = await startTestServer();
    const feedLines = () => (server as TestServer).lines.filter((line) => / feed: /.test(line));
    // The fixtures' states are old: stale from the start, said at once.
    expect(feedLines()).toEqual([
      expect.stringMatching(
        / feed: 413 of 413 stations not reported for 15 minutes or more \(100%, more than 25%\): \/status says ok: false$/,
      ),
    ]);
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect(feedLines()).toHaveLength(1); // still stale: not said again
    const recent = new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, "Z");
    await rewriteStates(server.source, (file) => {
      for (const state of file.states) state.lastUpdate = recent;
    });
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect(feedLines()[1]).toMatch(/ feed: fresh again, 0 of 413 stations not reported /);
    expect(feedLines()).toHaveLength(2);
  });

  it("logs and counts the stations without a state apart from those not reported", async () => {
    server = await startTestServer({ maxStale: 2 });
    const feedLines = () => (server as TestServer).lines.filter((line) => / feed: /.test(line));
    const recent = new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, "Z");
    await rewriteStates(server.source, (file) => {
      for (const state of file.states) state.lastUpdate = recent;
    });
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect(feedLines()).toHaveLength(2); // stale from the start, fresh again
    // Of the 10 stations stale (2.4%), 7 reported a minute ago: 5 left out, 2 sent in error.
    await rewriteStates(server.source, (file) => {
      file.states.splice(0, 5);
      for (const state of file.states.slice(0, 2)) state.status = "open";
      for (const state of file.states.slice(2, 5)) state.lastUpdate = "2026-01-01T00:00:00Z";
    });
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect(feedLines()[2]).toMatch(
      / feed: 3 of 413 stations not reported for 15 minutes or more and 7 without a state in the last read \(2\.4%, more than 2%\): \/status says ok: false$/,
    );
    expect((await statusOf(server.base)).feed).toMatchObject({
      ok: false,
      staleStations: 10,
      missingStations: 7,
    });
  });

  it("logs when the states go back in time: older reports than those served, or a file dated earlier", async () => {
    server = await startTestServer();
    const wentBack = () =>
      (server as TestServer).lines.filter((line) => line.includes("replayed?"));
    const setReports = (at: string) =>
      rewriteStates((server as TestServer).source, (file) => {
        for (const state of file.states) state.lastUpdate = at;
      });
    await setReports("2026-11-21T10:00:00Z");
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect(wentBack()).toEqual([]);
    // An older file's reports: served all the same, and said.
    await setReports("2026-11-20T10:00:00Z");
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect(wentBack()).toEqual([
      expect.stringMatching(
        /states\.json: its newest report \(2026-11-20T10:00:00Z\) is older than the newest published \(2026-11-21T10:00:00Z\): an older states file replayed\? Published all the same$/,
      ),
    ]);
    // The same states in a file dated an hour before the one served (copied with its old time).
    const path = join(server.source, "states.json");
    const served = (await stat(path)).mtime;
    const earlier = new Date(Math.floor(served.getTime() / 1000) * 1000 - 3600_000);
    await utimes(path, earlier, earlier);
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect(wentBack()).toHaveLength(2);
    expect(wentBack()[1]).toContain(
      `dated ${earlier.toISOString().replace(".000Z", "Z")} (its modification time), before the states published`,
    );
    const statusAt = async () =>
      (await (await fetch(`${server?.base}/contracts/dublin/gbfs/v3/station_status.json`)).json())
        .last_updated;
    expect(await statusAt()).toBe(earlier.toISOString().replace(".000Z", "Z"));
  });

  it("logs no replay when the station with the newest report leaves the feed", async () => {
    server = await startTestServer();
    const wentBack = () =>
      (server as TestServer).lines.filter((line) => line.includes("replayed?"));
    const source = server.source;
    // The first station reports a day after the others, then leaves the feed (its state kept).
    await rewriteStates(source, (file) => {
      for (const state of file.states) state.lastUpdate = "2026-11-20T10:00:00Z";
      (file.states[0] as { lastUpdate: string }).lastUpdate = "2026-11-21T10:00:00Z";
    });
    expect((await server.handle.refreshNow()).ok).toBe(true);
    await rewriteStates(source, (file) => file.states.splice(0, 1));
    for (const minute of [1, 2]) {
      expect((await server.handle.refreshNow()).ok).toBe(true);
      expect(wentBack(), `minute ${minute}`).toEqual([]);
    }
    expect((await statusOf(server.base)).feed.missingStations).toBe(1);
    // The stations still reported all going back in time are still said.
    await rewriteStates(source, (file) => {
      for (const state of file.states) state.lastUpdate = "2026-11-19T10:00:00Z";
    });
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect(wentBack()).toEqual([
      expect.stringContaining(
        "its newest report (2026-11-19T10:00:00Z) is older than the newest published (2026-11-20T10:00:00Z)",
      ),
    ]);
  });

  it("logs and counts stations left out by a refresh, within the allowed share", async () => {
    server = await startTestServer();
    await rewriteStates(server.source, (file) => file.states.splice(0, 5));
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect((await statusOf(server.base)).feed.missingStations).toBe(5);
    expect(server.lines.join("\n")).toMatch(
      /states\.json: 5 stations reported before are missing \(last state kept, marked disconnected\): dublin #42, /,
    );
  });

  it("refuses a states file that leaves out more than --max-missing, keeping the last release", async () => {
    server = await startTestServer({ maxMissing: 10 });
    const before = await statusOf(server.base);
    await rewriteStates(server.source, (file) => file.states.splice(0));
    const outcome = await server.handle.refreshNow();
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toContain(
      "leaves out 413 of the 413 stations reported before (100%), more than --max-missing 10% allows",
    );
    const after = await statusOf(server.base);
    expect(after.release).toBe(before.release);
    expect(after.ok).toBe(false);
    expect(after.lastRefresh?.error).toBe(outcome.error);
    expect(after.feed.missingStations).toBe(0);
    const station = await (await server.get("/vls/v3/stations/42?contract=dublin")).json();
    expect(station).toMatchObject({ status: "OPEN" });
  });

  it("names the stations a refused file has no record of, its state in error said apart, as the start does", async () => {
    server = await startTestServer({ maxMissing: 10 });
    const states = join(server.source, "states.json");
    // Dublin's feed broke (its 114 stations gone), and one Toulouse state is in error.
    let toulouse = -1;
    await rewriteStates(server.source, (file) => {
      file.states = file.states.filter(({ contract }) => contract !== "dublin");
      toulouse = file.states.findIndex(({ contract }) => contract === "toulouse");
      (file.states[toulouse] as { status: string }).status = "open";
    });
    const outcome = await server.handle.refreshNow();
    expect(outcome.ok).toBe(false);
    // The words of the cron refresh's refusal of the same file (refresh.test.ts), after its name.
    expect(outcome.error).toBe(
      `${states}: leaves out 115 of the 413 stations reported before (27.8%), more than --max-missing 10% allows: fix the feed, or raise --max-missing if stations really left; ` +
        "114 stations not in it (dublin #42, dublin #30, dublin #54, dublin #108, dublin #20, dublin #56, dublin #6, dublin #18, dublin #32, dublin #52 and 104 more); " +
        `1 state in error left out (${states}[${toulouse}] (toulouse #55) status: must be one of "OPEN", "CLOSED", got "open")`,
    );
  });

  it("says the states in error a refusal for --max-missing left out, as the cron refresh does", async () => {
    server = await startTestServer({ maxMissing: 10 });
    const states = join(server.source, "states.json");
    await rewriteStates(server.source, (file) => {
      for (const state of file.states.slice(0, 60)) state.status = "open";
    });
    const outcome = await server.handle.refreshNow();
    expect(outcome.ok).toBe(false);
    // The words of the cron refresh's refusal of the same file (refresh.test.ts), after its name.
    expect(outcome.error).toBe(
      `${states}: leaves out 60 of the 413 stations reported before (14.5%), more than --max-missing 10% allows: fix the feed, or raise --max-missing if stations really left; ` +
        `60 states in error left out (${states}[0] (dublin #42) status: must be one of "OPEN", "CLOSED", got "open", …)`,
    );
    expect((await statusOf(server.base)).lastRefresh?.error).toBe(outcome.error);
    expect(server.lines.filter((line) => line.includes("refresh failed"))).toEqual([
      expect.stringContaining(`refresh failed: ${outcome.error}; keeping release `),
    ]);
  });
});
