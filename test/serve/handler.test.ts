import { afterEach, describe, expect, it } from "vitest";
import { makeRelease, type Release, releaseFile } from "../../src/publish/release.js";
import { pathOf } from "../../src/routes/routes.js";
import { type FailedKeyLimit, failedKeyLimit } from "../../src/serve/failed-key-limit.js";
import type { Live } from "../../src/serve/live.js";
import { type RunningServer, startServer } from "../../src/serve/server.js";

const KEY = "0123456789abcdef0123456789abcdef01234567";
const KEY_ID = "0de43ae5";
const REVOKED_KEY = "fedcba9876543210fedcba9876543210fedcba98";
const REVOKED_ID = "7c1e0b2a";
const COUNTS = { contracts: 1, stations: 1, parkings: 0 };
const lyonList = pathOf({ name: "contractStations", contract: "lyon" });
const list = (text: string) => releaseFile([Buffer.from(text)], "application/json", "dynamic");

let running: RunningServer | undefined;
afterEach(() => running?.close());

async function serveLive(
  live: Live,
  now?: () => Date,
  lines: string[] = [],
  failedKeys?: FailedKeyLimit,
): Promise<string> {
  running = await startServer({
    ...(failedKeys ? { failedKeys } : {}),
    live,
    keys: {
      idOf: (key) => (key === KEY ? KEY_ID : null),
      revokedIdOf: (key) => (key === REVOKED_KEY ? REVOKED_ID : null),
      limitOf: () => undefined,
      failingSince: () => null,
      activeCount: () => 1,
      close: () => {},
    },
    log: (line) => lines.push(line),
    port: 0,
    host: "127.0.0.1",
    ...(now ? { now } : {}),
  });
  return running.url;
}

const liveOf = (release: Release, nextRefreshAt: Date | null = null): Live => ({
  release,
  refreshSeconds: 60,
  nextRefreshAt,
  lastRefresh: null,
});

describe("the same request over successive releases", () => {
  it("answers a repeated request from the release current at that moment", async () => {
    const first = makeRelease(new Map([[lyonList, list("[1]")]]), COUNTS, new Date(), [
      { name: "lyon", parkingApi: false },
    ]);
    const live = liveOf(first);
    const url = `${await serveLive(live)}/vls/v3/stations?contract=Lyon&apiKey=${KEY}`;
    expect(await (await fetch(url)).text()).toBe("[1]");
    expect(await (await fetch(url)).text()).toBe("[1]");

    live.release = makeRelease(new Map([[lyonList, list("[2]")]]), COUNTS, new Date(), [
      { name: "lyon", parkingApi: false },
    ]);
    expect(await (await fetch(url)).text()).toBe("[2]");

    // The contract is gone from the next release: the same request now names an unknown contract.
    live.release = makeRelease(new Map(), { ...COUNTS, contracts: 0 }, new Date(), []);
    const gone = await fetch(url);
    expect(gone.status).toBe(400);
    expect(await gone.json()).toEqual({ error: "Specified contract does not exist" });
  });
});

describe("the log of a repeated request", () => {
  it("redacts the key on every line, says each answer's status, and names a key by its id", async () => {
    const release = makeRelease(new Map([[lyonList, list("[1]")]]), COUNTS, new Date(), [
      { name: "lyon", parkingApi: false },
    ]);
    const lines: string[] = [];
    const base = await serveLive(liveOf(release), undefined, lines);
    const asked = `${base}/vls/v3/stations?contract=lyon&apiKey=${KEY}`;
    for (let i = 0; i < 3; i++) await (await fetch(asked)).text();
    const wrong = `${base}/vls/v3/stations?contract=lyon&apiKey=${KEY.replace("0", "f")}`;
    for (let i = 0; i < 2; i++) await (await fetch(wrong)).text();
    const revoked = `${base}/vls/v3/stations?contract=lyon&apiKey=${REVOKED_KEY}`;
    expect((await fetch(revoked)).status).toBe(403);
    await running?.close(); // every line is written once its connection is done
    running = undefined;
    const logged = (status: number, end: RegExp) =>
      lines.filter(
        (line) =>
          line.startsWith(`GET /vls/v3/stations?contract=lyon&apiKey=<redacted> ${status} `) &&
          end.test(line),
      ).length;
    // A revoked key is refused as a wrong one, but named: the operator sees who still uses it.
    expect([
      logged(200, / key 0de43ae5$/),
      logged(403, /\dms$/),
      logged(403, / key 7c1e0b2a \(revoked\)$/),
    ]).toEqual([3, 2, 1]);
    expect(lines.join("\n")).not.toMatch(/[0-9a-f]{40}/);
  });
});

describe("a revoked key past --max-key-failures", () => {
  it("is still named in the lines of its 429s", async () => {
    const release = makeRelease(new Map([[lyonList, list("[1]")]]), COUNTS, new Date(), [
      { name: "lyon", parkingApi: false },
    ]);
    const lines: string[] = [];
    const base = await serveLive(liveOf(release), undefined, lines, failedKeyLimit(1, 60));
    const revoked = `${base}/vls/v3/stations?contract=lyon&apiKey=${REVOKED_KEY}`;
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(revoked)).status);
    expect(statuses).toEqual([403, 429, 429]);
    await running?.close();
    running = undefined;
    const named = lines.filter((line) => line.endsWith(` key ${REVOKED_ID} (revoked)`));
    expect(named.map((line) => line.split(" ")[2])).toEqual(["403", "429", "429"]);
  });
});

describe("a request with no key under --max-key-failures", () => {
  it("is refused 403 and never counted: it guesses no key", async () => {
    const release = makeRelease(new Map([[lyonList, list("[1]")]]), COUNTS, new Date(), [
      { name: "lyon", parkingApi: false },
    ]);
    const base = await serveLive(liveOf(release), undefined, [], failedKeyLimit(1, 60));
    const asked = [
      `${base}/vls/v3/stations?contract=lyon`,
      `${base}/vls/v3/stations?contract=lyon&apiKey=`, // a client's unset variable
      `${base}/vls/v3/stations?contract=lyon&apiKey=${REVOKED_KEY}`,
      `${base}/vls/v3/stations?contract=lyon&apiKey=${REVOKED_KEY}`,
    ];
    const statuses = [];
    for (const url of asked) statuses.push((await fetch(url)).status);
    expect(statuses).toEqual([403, 403, 403, 429]);
  });
});

describe("the key of a request no answer uses", () => {
  it("is never looked up for a preflight or a refused method, nor named in its line", async () => {
    const release = makeRelease(new Map([[lyonList, list("[1]")]]), COUNTS, new Date(), [
      { name: "lyon", parkingApi: false },
    ]);
    const asked: string[] = [];
    const lines: string[] = [];
    running = await startServer({
      live: liveOf(release),
      keys: {
        idOf: (key) => {
          asked.push(key);
          return KEY_ID;
        },
        revokedIdOf: () => null,
        limitOf: () => undefined,
        failingSince: () => null,
        activeCount: () => 1,
        close: () => {},
      },
      log: (line) => lines.push(line),
      port: 0,
      host: "127.0.0.1",
    });
    const url = `${running.url}/vls/v3/stations?contract=lyon&apiKey=${KEY}`;
    expect((await fetch(url, { method: "OPTIONS" })).status).toBe(204);
    expect((await fetch(url, { method: "POST" })).status).toBe(405);
    expect(asked).toEqual([]);
    await (await fetch(url)).text();
    expect(asked).toEqual([KEY]);
    await running.close(); // every line is written once its connection is done
    running = undefined;
    expect(lines.filter((line) => line.endsWith(` key ${KEY_ID}`))).toEqual([
      expect.stringMatching(/^GET /),
    ]);
  });
});

describe("Cache-Control of station answers", () => {
  it("counts down to the next refresh, on 200 and 304 alike, private as the answer needs a key", async () => {
    let clock = Date.parse("2026-01-01T12:00:00.000Z");
    const file = list("[1]");
    const release = makeRelease(new Map([[lyonList, file]]), COUNTS, new Date(clock), [
      { name: "lyon", parkingApi: false },
    ]);
    const live = liveOf(release, new Date(clock + 60_000));
    const url = `${await serveLive(live, () => new Date(clock))}/vls/v3/stations?contract=lyon&apiKey=${KEY}`;
    const cacheControl = async (headers: Record<string, string> = {}) => {
      const response = await fetch(url, { headers });
      return [response.status, response.headers.get("cache-control")];
    };
    expect(await cacheControl()).toEqual([200, "private, max-age=60"]);
    clock += 1_500;
    expect(await cacheControl()).toEqual([200, "private, max-age=58"]);
    expect(await cacheControl({ "If-None-Match": file.etag })).toEqual([
      304,
      "private, max-age=58",
    ]);
    clock += 59_000;
    expect(await cacheControl({ "If-None-Match": file.etag })).toEqual([304, "private, max-age=0"]);
  });
});
