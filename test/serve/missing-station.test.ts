// serve's minute refresh: a station the states file leaves out keeps its last state, marked
// disconnected, as long as the file leaves it out; it is published anew when reported again.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { memoryOutput } from "../../src/commands/output.js";
import { serve } from "../../src/commands/serve.js";
import { tempDir } from "../helpers.js";
import { startTestServer, type TestServer } from "./serve-helpers.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.handle.stop();
  server = undefined;
});

interface StatesFile {
  states: { contract: string; number: number; lastUpdate: string }[];
}

const STATION = "/vls/v3/stations/42?contract=dublin";

/** The states file of `source` with Dublin #42's record taken out (`put` back: with it). */
async function withoutDublin42(source: string) {
  const path = join(source, "states.json");
  const file = JSON.parse(await readFile(path, "utf8")) as StatesFile;
  const at = file.states.findIndex((state) => state.contract === "dublin" && state.number === 42);
  const [record] = file.states.splice(at, 1);
  if (!record) throw new Error("no dublin #42 in the fixtures' states");
  await writeFile(path, JSON.stringify(file));
  return {
    record,
    put: async () => {
      file.states.splice(at, 0, record);
      await writeFile(path, JSON.stringify(file));
    },
  };
}

async function gbfsStatusOf(base: string, contract: string, id: string): Promise<unknown> {
  const feed = await (
    await fetch(`${base}/contracts/${contract}/gbfs/v3/station_status.json`)
  ).json();
  return (feed as { data: { stations: { station_id: string }[] } }).data.stations.find(
    (station) => station.station_id === id,
  );
}

const gbfsStatusOf42 = (base: string) => gbfsStatusOf(base, "dublin", "42");

const NANTES_5 = "/vls/v3/stations/5?contract=nantes";

/** Nantes #5's record taken out of the states file of `source`. */
async function withoutNantes5(source: string): Promise<void> {
  const path = join(source, "states.json");
  const file = JSON.parse(await readFile(path, "utf8")) as StatesFile;
  file.states = file.states.filter((state) => !(state.contract === "nantes" && state.number === 5));
  await writeFile(path, JSON.stringify(file));
}

/** Nantes #5's 18 main stands made 4 in the static source: its state has 10 bikes and 6 free. */
async function nantes5Lowered(source: string): Promise<void> {
  const csv = join(source, "stations.csv");
  const rows = await readFile(csv, "utf8");
  const edited = rows.replace(/^(nantes,5,.*),true,18,6(\r?)$/m, "$1,true,4,6$2");
  expect(edited).not.toBe(rows);
  await writeFile(csv, edited);
}

/** Nantes #5 published without a state, as one never reported, and said why. */
async function expectNantes5WithoutState(base: string, key: string, log: string): Promise<void> {
  expect(await (await fetch(`${base}${NANTES_5}&apiKey=${key}`)).json()).toMatchObject({
    status: "CLOSED",
    connected: false,
    lastUpdate: null,
    totalStands: { availabilities: { bikes: 0, stands: 0 }, capacity: 10 },
  });
  expect(await gbfsStatusOf(base, "nantes", "5")).toMatchObject({
    num_vehicles_available: 0,
    num_docks_available: 0,
    is_installed: false,
  });
  expect(log).toContain(
    "(nantes #5): its last published state, kept while the states file leaves it out, no longer fits the station as the static source now describes it (mainStands: bikes + stands is 16, more than the station's capacity of 4): this state is left out, the station published without one (CLOSED) until the feed gives a good one",
  );
}

describe("serve: a station the states file leaves out", () => {
  it("keeps its last state, disconnected, minute after minute, until it reports again", async () => {
    server = await startTestServer();
    const before = await (await server.get(STATION)).json();
    expect(before).toMatchObject({
      status: "OPEN",
      connected: true,
      lastUpdate: "2025-02-08T16:44:06Z",
      totalStands: { availabilities: { bikes: 27, stands: 3 } },
    });
    const left = await withoutDublin42(server.source);
    expect((await server.handle.refreshNow()).ok).toBe(true);

    const kept = await server.get(STATION);
    expect(await kept.json()).toEqual({ ...before, connected: false });
    expect(await gbfsStatusOf42(server.base)).toMatchObject({
      num_vehicles_available: 27,
      num_docks_available: 3,
      is_installed: true,
      is_renting: false,
      is_returning: false,
      last_reported: "2025-02-08T16:44:06Z",
    });
    const log = server.lines.join("\n");
    expect(log).toMatch(
      /states\.json: 1 station reported before is missing \(last state kept, marked disconnected\): dublin #42$/m,
    );
    expect(log).not.toContain("CLOSED");
    // Not in the last read all the same: /status counts it.
    const status = await (await fetch(`${server.base}/status`)).json();
    expect(status.feed.missingStations).toBe(1);

    // The next minute leaves it out again: the same answers, nothing rendered again.
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect((await server.get(STATION)).headers.get("etag")).toBe(kept.headers.get("etag"));
    expect(server.lines.at(-1)).toMatch(/refreshed from .*: release [0-9a-f]+, 0 answers changed/);

    // Reported again: its new state.
    left.record.lastUpdate = "2025-02-08T17:00:00Z";
    await left.put();
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect(await (await server.get(STATION)).json()).toEqual({
      ...before,
      lastUpdate: "2025-02-08T17:00:00Z",
    });
  });

  it("keeps its last state across an edit of the static source, unless it no longer fits its station", async () => {
    server = await startTestServer();
    const before = await (await server.get(STATION)).json();
    await withoutDublin42(server.source);
    await withoutNantes5(server.source);
    expect((await server.handle.refreshNow()).ok).toBe(true);
    // Kept, until the edit: Nantes #5 down to 4 main stands.
    expect(await (await server.get(NANTES_5)).json()).toMatchObject({ connected: false });

    await nantes5Lowered(server.source);
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect(server.lines.join("\n")).toContain("static source: its edit is published");
    await expectNantes5WithoutState(server.base, server.key, server.lines.join("\n"));
    expect(await (await server.get(STATION)).json()).toEqual({ ...before, connected: false });

    // The next minutes go on from there, from the answers served.
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect(await (await server.get(STATION)).json()).toEqual({ ...before, connected: false });
    expect(await (await server.get(NANTES_5)).json()).toMatchObject({ lastUpdate: null });
  });

  it("keeps the state its tree publishes when the server restarts while the file leaves it out", async () => {
    const out = join(await tempDir(), "out");
    server = await startTestServer({ out });
    const before = await (await server.get(STATION)).json();
    const { source } = server;
    await server.handle.stop();
    await withoutDublin42(source);
    const output = memoryOutput();
    const keys = join(source, "..", "keys.json");
    const restarted = await serve({ source, keys, out, port: 0, refresh: 3600, output });
    try {
      const key = server.key;
      const answer = await fetch(`${restarted.url}${STATION}&apiKey=${key}`);
      expect(await answer.json()).toEqual({ ...before, connected: false });
      const log = output.lines.join("\n");
      expect(log).toContain(
        "(dublin #42): no state: its last published state kept (status, bikes, stands, lastUpdate), marked disconnected",
      );
      expect(log).not.toContain("published as CLOSED");
      // Missing from the file read, as /status counts it.
      const status = await (await fetch(`${restarted.url}/status`)).json();
      expect(status.feed).toMatchObject({ missingStations: 1 });
      // The next minute goes on from the file: the same answer, and no news of a station the
      // start already said was missing.
      expect((await restarted.refreshNow()).ok).toBe(true);
      const again = await fetch(`${restarted.url}${STATION}&apiKey=${key}`);
      expect(again.headers.get("etag")).toBe(answer.headers.get("etag"));
      expect(output.lines.join("\n")).not.toContain("reported before is missing");
      // Without the tree to read it from, the station was never reported as far as this server knows.
      const alone = await serve({ source, keys, port: 0, refresh: 3600, output: memoryOutput() });
      try {
        const unknown = await fetch(`${alone.url}${STATION}&apiKey=${key}`);
        expect(await unknown.json()).toMatchObject({ status: "CLOSED", lastUpdate: null });
      } finally {
        await alone.stop();
      }
    } finally {
      await restarted.stop();
      server = undefined;
    }
  });

  it("is counted against --max-missing at a restart, though the tree keeps its state", async () => {
    const out = join(await tempDir(), "out");
    server = await startTestServer({ out });
    const { source } = server;
    await server.handle.stop();
    server = undefined;
    // Every station's state but Dublin's 114 left out: 299 of the 413.
    const path = join(source, "states.json");
    const file = JSON.parse(await readFile(path, "utf8")) as StatesFile;
    file.states = file.states.filter((state) => state.contract === "dublin");
    await writeFile(path, JSON.stringify(file));
    const keys = join(source, "..", "keys.json");
    const output = memoryOutput();
    // A server started all the same is stopped: the test fails without one left listening.
    const restart = await serve({ source, keys, out, port: 0, refresh: 3600, output }).then(
      (started) => started.stop().then(() => "started"),
      (refusal: unknown) => refusal,
    );
    expect(restart).toMatchObject({
      message: "the source data has 1 error; the server was not started",
      details: [
        expect.stringContaining(
          `error: ${path}: leaves out 299 of the 413 stations the static source lists (72.4%), more than --max-missing 10% allows`,
        ),
        "and 299 warnings (`velodata validate --all`, given the same --source and --state, lists every one)",
      ],
    });
  });

  it("leaves out at a restart a state its tree publishes that no longer fits its station, said, and keeps the others", async () => {
    const out = join(await tempDir(), "out");
    server = await startTestServer({ out });
    const before = await (await server.get(STATION)).json();
    const { source, key } = server;
    await server.handle.stop();
    server = undefined;
    await withoutDublin42(source);
    await withoutNantes5(source);
    await nantes5Lowered(source);
    const output = memoryOutput();
    const keys = join(source, "..", "keys.json");
    const restarted = await serve({ source, keys, out, port: 0, refresh: 3600, output });
    try {
      const log = output.lines.join("\n");
      await expectNantes5WithoutState(restarted.url, key, log);
      expect(log).not.toMatch(/\(nantes #5\): no state/);
      // A state that still fits its station is kept.
      const kept = await fetch(`${restarted.url}${STATION}&apiKey=${key}`);
      expect(await kept.json()).toEqual({ ...before, connected: false });
    } finally {
      await restarted.stop();
    }
  });
});

describe("serve's start: a station whose state in error is left out", () => {
  it("says once, in its state's line, that the state its tree publishes no longer fits it", async () => {
    const out = join(await tempDir(), "out");
    server = await startTestServer({ out });
    const { source, key } = server;
    await server.handle.stop();
    server = undefined;
    const path = join(source, "states.json");
    const file = JSON.parse(await readFile(path, "utf8")) as StatesFile;
    const at = file.states.findIndex((state) => state.contract === "nantes" && state.number === 5);
    Object.assign(file.states[at] ?? {}, { status: "open" });
    await writeFile(path, JSON.stringify(file));
    await nantes5Lowered(source);
    const output = memoryOutput();
    const keys = join(source, "..", "keys.json");
    const restarted = await serve({ source, keys, out, port: 0, refresh: 3600, output });
    try {
      const said = output.lines.join("\n").split("\n");
      expect(said.filter((line) => line.includes("(nantes #5)"))).toEqual([
        `warning: ${path}[${at}] (nantes #5) status: must be one of "OPEN", "CLOSED", got "open": this state is left out, and the station's last published state no longer fits it as the static source now describes it (mainStands: bikes + stands is 16, more than the station's capacity of 4): the station published without one (CLOSED) until the feed gives a good one`,
        // The state's own counts are beyond the capacity too: said, its outcome not again.
        `warning: ${path}[${at}] (nantes #5) mainStands: bikes + stands is 16, more than the station's capacity of 4: this state is left out, the station published without one (CLOSED) until the feed gives a good one`,
      ]);
      expect(await (await fetch(`${restarted.url}${NANTES_5}&apiKey=${key}`)).json()).toMatchObject(
        { status: "CLOSED", lastUpdate: null },
      );
    } finally {
      await restarted.stop();
    }
  });
});
