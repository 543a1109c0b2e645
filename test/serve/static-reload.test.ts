// serve publishes an edit of its static source at the refresh after it, with no restart; an edit in
// error, or one that drops too many stations, is refused and said once, the source published
// before served on with the minute's states (see static-reload.ts).
import { readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../helpers.js";
import {
  editStates,
  startTestServer,
  station42AtEachMinute,
  type TestServer,
} from "./serve-helpers.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.handle.stop();
  server = undefined;
});

const SMITHFIELD = "dublin,42,SMITHFIELD NORTH,Smithfield North,";
// A station the fixtures do not have, in Dublin, and its state.
const NEW_ROW = "dublin,990,NEW QUAY,New Quay,53.3461,-6.2706,false,false,false,20,";
const NEW_STATE = {
  contract: "dublin",
  number: 990,
  status: "OPEN",
  connected: true,
  lastUpdate: "2025-02-08T16:50:00Z",
  mainStands: {
    bikes: 5,
    stands: 15,
    mechanicalBikes: 5,
    electricalBikes: 0,
    electricalInternalBatteryBikes: 0,
    electricalRemovableBatteryBikes: 0,
  },
  overflowStands: null,
};

async function editStations(source: string, edit: (text: string) => string): Promise<void> {
  const path = join(source, "stations.csv");
  await writeFile(path, edit(await readFile(path, "utf8")));
}

/** Dublin's 114 rows gone from stations.csv: a file cut short, or a wrong export. */
const withoutDublin = (text: string) =>
  text
    .split("\n")
    .filter((row) => !row.startsWith("dublin,"))
    .join("\n");

const stationName = async (served: TestServer, number: number) => {
  const answer = await served.get(`/vls/v3/stations/${number}?contract=dublin`);
  return answer.status === 200 ? ((await answer.json()) as { name: string }).name : answer.status;
};

const staticStatus = async (served: TestServer) =>
  (
    (await (await fetch(`${served.base}/status`)).json()) as {
      staticSource: { path: string; updatedAt: string; error: string | null };
    }
  ).staticSource;

const linesWith = (lines: readonly string[], text: string) =>
  lines.filter((line) => line.includes(text));

describe("serve: its static source edited while it runs", () => {
  it("publishes the edit at the next refresh: a station renamed, one added with its state", async () => {
    server = await startTestServer();
    const before = await staticStatus(server);
    expect(before).toEqual({ path: server.source, updatedAt: expect.any(String), error: null });
    await editStations(server.source, (text) =>
      text
        .replace(`${SMITHFIELD}`, "dublin,42,SMITHFIELD,Smithfield North,")
        .concat(`${NEW_ROW}\n`),
    );
    await editStates(server.source, (text) => {
      const states = JSON.parse(text) as { states: unknown[] };
      states.states.push(NEW_STATE);
      return JSON.stringify(states);
    });
    // Not before the refresh: the server answers the release it made.
    expect(await stationName(server, 990)).toBe(404);
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect(await stationName(server, 42)).toBe("SMITHFIELD");
    expect(await stationName(server, 990)).toBe("NEW QUAY");
    const list = (await (await server.get("/vls/v3/stations?contract=dublin")).json()) as {
      number: number;
      totalStands: { availabilities: { bikes: number } };
    }[];
    expect(list.find((station) => station.number === 990)?.totalStands.availabilities.bikes).toBe(
      5,
    );
    // The static answers too: the contract's static table, and the bundle's date moves.
    const table = await (await server.get("/rest/vls/stations/dublin.csv")).text();
    expect(table).toContain("NEW QUAY");
    expect(linesWith(server.lines, "static source: its edit is published")).toEqual([
      expect.stringMatching(/: 5 contracts, 414 stations \(was 413\), \d+ parkings$/),
    ]);
    const after = await staticStatus(server);
    expect(after.error).toBeNull();
    expect(Date.parse(after.updatedAt)).toBeGreaterThanOrEqual(Date.parse(before.updatedAt));
    // Published once: the next refresh reads the states only.
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect(linesWith(server.lines, "static source:")).toHaveLength(1);
  });

  it("names the stations an edit no longer lists, once published: gone from every answer", async () => {
    server = await startTestServer();
    await editStations(server.source, (text) =>
      text
        .split("\n")
        .filter((row) => !row.startsWith(SMITHFIELD))
        .concat(NEW_ROW, "")
        .join("\n"),
    );
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect(await stationName(server, 42)).toBe(404);
    // As many stations as before: the counts alone said nothing of it.
    expect(linesWith(server.lines, "static source:")).toEqual([
      expect.stringMatching(/its edit is published: 5 contracts, 413 stations, \d+ parkings$/),
      expect.stringMatching(
        /static source: 1 station no longer listed by the static source, no longer published: dublin #42 "SMITHFIELD NORTH"$/,
      ),
    ]);
  });

  it("refuses an edit in error, said once, and serves the minute's states against the source it published", async () => {
    server = await startTestServer();
    await editStations(server.source, (text) =>
      text.replace(
        `${SMITHFIELD}53.349562,-6.278198,false,false,false,30,`,
        `${SMITHFIELD}53.349562,-6.278198,false,false,false,thirty,`,
      ),
    );
    const minutes = await station42AtEachMinute<{
      lastUpdate: string;
      mainStands: { capacity: number };
    }>(server, ["2025-02-08T17:01:00Z", "2025-02-08T17:02:00Z"]);
    for (const { reported, ok, station } of minutes)
      expect([ok, station.lastUpdate, station.mainStands.capacity]).toEqual([true, reported, 30]);
    const refused = linesWith(server.lines, "static source:");
    expect(refused).toEqual([
      expect.stringContaining(
        "static source: the source data has 1 error; its change is not published: the states still are, against the static source last published",
      ),
    ]);
    expect(linesWith(server.lines, "(dublin #42) capacity")).toHaveLength(1);
    expect((await staticStatus(server)).error).toBe(
      "the source data has 1 error; its change is not published: the states still are, against the static source last published",
    );
    // Fixed: published at the next refresh, the refusal gone from /status.
    await editStations(server.source, (text) => text.replace(",thirty,", ",31,"));
    expect((await server.handle.refreshNow()).ok).toBe(true);
    const fixed = (await (await server.get("/vls/v3/stations/42?contract=dublin")).json()) as {
      mainStands: { capacity: number };
    };
    expect(fixed.mainStands.capacity).toBe(31);
    expect((await staticStatus(server)).error).toBeNull();
  });

  it("names the files gone when its source folder empties (a file system unmounted), in the log and /status", async () => {
    server = await startTestServer();
    await rm(join(server.source, "contracts.json"));
    await rm(join(server.source, "stations.csv"));
    expect((await server.handle.refreshNow()).ok).toBe(true);
    const missing = `missing source files: ${join(server.source, "contracts.json")}, ${join(server.source, "stations.json")} or ${join(server.source, "stations.csv")}; its change is not published`;
    expect(linesWith(server.lines, "static source:")).toEqual([expect.stringContaining(missing)]);
    expect((await staticStatus(server)).error).toContain(missing);
    expect(await stationName(server, 42)).toBe("SMITHFIELD NORTH");
  });

  it("refuses an edit that no longer lists more of the stations than --max-removed allows", async () => {
    server = await startTestServer();
    await editStations(server.source, withoutDublin);
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect(linesWith(server.lines, "static source:")).toEqual([
      expect.stringContaining(
        `static source: ${server.source} no longer lists 114 of the 413 stations published (27.6%), more than --max-removed 10% allows`,
      ),
    ]);
    expect(await stationName(server, 42)).toBe("SMITHFIELD NORTH");
  });

  it("publishes such an edit when --max-removed allows it", async () => {
    server = await startTestServer({ maxRemoved: 30 });
    await editStations(server.source, withoutDublin);
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect(await stationName(server, 42)).toBe(404);
    expect(linesWith(server.lines, "static source: its edit is published")).toEqual([
      expect.stringContaining("299 stations (was 413)"),
    ]);
  });

  it("gives a station an edit adds a simulated state (--simulate)", async () => {
    server = await startTestServer({ simulate: true, seed: 3 });
    await editStations(server.source, (text) => text.concat(`${NEW_ROW}\n`));
    expect((await server.handle.refreshNow()).ok).toBe(true);
    const station = (await (await server.get("/vls/v3/stations/990?contract=dublin")).json()) as {
      lastUpdate: string | null;
      totalStands: { capacity: number; availabilities: { bikes: number; stands: number } };
    };
    expect(station.lastUpdate).not.toBeNull();
    const { bikes, stands } = station.totalStands.availabilities;
    expect(bikes + stands).toBe(20);
  });

  it("installs anew a simulated station whose state no longer fits it as edited (--simulate)", async () => {
    server = await startTestServer({ simulate: true, seed: 3 });
    // Nantes #5 down from 18 main stands to 4; Nantes's electrical bikes (removable batteries,
    // docked at 3 of its 5 stations) out of service.
    await editStations(server.source, (text) =>
      text.replace(/^(nantes,5,.*),true,18,6(\r?)$/m, "$1,true,4,6$2"),
    );
    const contracts = join(server.source, "contracts.json");
    const file = JSON.parse(await readFile(contracts, "utf8")) as {
      contracts: { name: string; bikeTypes: Record<string, unknown> }[];
    };
    const nantes = file.contracts.find((contract) => contract.name === "nantes");
    delete nantes?.bikeTypes.electricalRemovableBattery;
    await writeFile(contracts, JSON.stringify(file));
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect(server.lines.join("\n")).toContain("static source: its edit is published");

    const station = (await (await server.get("/vls/v3/stations/5?contract=nantes")).json()) as {
      mainStands: { capacity: number; availabilities: { bikes: number; stands: number } };
    };
    const { bikes, stands } = station.mainStands.availabilities;
    expect({ capacity: station.mainStands.capacity, bikes: bikes + stands }).toEqual({
      capacity: 4,
      bikes: 4,
    });
    const feed = async (name: string) =>
      (
        (await (await fetch(`${server?.base}/contracts/nantes/gbfs/v3/${name}.json`)).json()) as {
          data: { stations: Record<string, unknown>[] };
        }
      ).data.stations;
    const capacities = new Map(
      (await feed("station_information")).map((entry) => [entry.station_id, entry.capacity]),
    );
    for (const entry of await feed("station_status")) {
      const types = entry.vehicle_types_available as { count: number }[];
      const vehicles = entry.num_vehicles_available as number;
      const counted = types.reduce((sum, type) => sum + type.count, 0);
      expect(counted, `station ${entry.station_id}`).toBe(vehicles);
      expect(vehicles + (entry.num_docks_available as number)).toBeLessThanOrEqual(
        capacities.get(entry.station_id) as number,
      );
    }
  });

  it("writes the edit to its tree on disk (--out)", async () => {
    const out = join(await tempDir(), "out");
    server = await startTestServer({ out });
    await editStations(server.source, (text) =>
      text.replace(SMITHFIELD, "dublin,42,SMITHFIELD,Smithfield North,"),
    );
    expect((await server.handle.refreshNow()).ok).toBe(true);
    const onDisk = JSON.parse(
      await readFile(join(out, "vls/v3/stations/dublin/42.json"), "utf8"),
    ) as { name: string };
    expect(onDisk.name).toBe("SMITHFIELD");
    const status = (await (await fetch(`${server.base}/status`)).json()) as {
      release: string;
      tree: { release: string };
    };
    expect(status.tree.release).toBe(status.release);
  });
});

describe("serve: an edit refused, edited back, then made again", () => {
  it("refuses it again, said and shown in /status, when the same bytes come back (rsync -a, mv)", async () => {
    server = await startTestServer();
    const path = join(server.source, "stations.csv");
    const original = await readFile(path, "utf8");
    const { mtime } = await stat(path);
    const broken = original.replace(
      `${SMITHFIELD}53.349562,-6.278198,false,false,false,30,`,
      `${SMITHFIELD}53.349562,-6.278198,false,false,false,thirty,`,
    );
    const brokenAt = new Date("2025-01-01T00:00:00Z");
    // The same bytes at the same time each way, as a copy that keeps times writes them.
    const put = async (text: string, at: Date) => {
      await writeFile(path, text);
      await utimes(path, at, at);
    };
    await put(broken, brokenAt);
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect((await staticStatus(server)).error).toContain("the source data has 1 error");
    await put(original, mtime);
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect((await staticStatus(server)).error).toBeNull();
    await put(broken, brokenAt);
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect((await staticStatus(server)).error).toContain("the source data has 1 error");
    expect(linesWith(server.lines, "(dublin #42) capacity")).toHaveLength(2);
  });
});
