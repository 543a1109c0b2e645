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

async function gbfsStatusOf42(base: string): Promise<unknown> {
  const feed = await (await fetch(`${base}/contracts/dublin/gbfs/v3/station_status.json`)).json();
  return (feed as { data: { stations: { station_id: string }[] } }).data.stations.find(
    (station) => station.station_id === "42",
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
});
