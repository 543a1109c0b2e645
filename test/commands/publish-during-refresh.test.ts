// `velodata publish` while a refresh changes the tree it reads: it stops, and nothing it put up names an answer it did not.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryOutput } from "../../src/commands/output.js";
import { publish } from "../../src/commands/publish.js";
import { UserError } from "../../src/errors.js";
import type { ObjectStore } from "../../src/host/object-storage/object-store.js";
import { s3Store } from "../../src/host/object-storage/s3-store.js";
import { fixtureCopy, refreshArgs, runCli, tempDir } from "../helpers.js";
import { BUCKET, startS3WithCredentials, type TestS3 } from "../host/object-storage/s3-server.js";

let s3: TestS3;
beforeAll(async () => {
  s3 = await startS3WithCredentials();
});
afterAll(() => s3.close());

const SCENARIO = 120_000;
const PREFIX = "during";
// A station the first tree lacks and the refreshed one adds.
const ADDED = { contract: "dublin", number: 30 };

/** The fixtures without ADDED (its row and its state); returns what puts it back. */
async function sourceWithoutAdded(): Promise<{ source: string; addBack: () => Promise<void> }> {
  const source = await fixtureCopy();
  const stationsCsv = join(source, "stations.csv");
  const statesJson = join(source, "states.json");
  const [stations, states] = await Promise.all([
    readFile(stationsCsv, "utf8"),
    readFile(statesJson, "utf8"),
  ]);
  const row = `${ADDED.contract},${ADDED.number},`;
  await writeFile(
    stationsCsv,
    stations
      .split("\n")
      .filter((line) => !line.startsWith(row))
      .join("\n"),
  );
  const parsed = JSON.parse(states) as { states: { contract: string; number: number }[] };
  parsed.states = parsed.states.filter(
    (state) => state.contract !== ADDED.contract || state.number !== ADDED.number,
  );
  await writeFile(statesJson, JSON.stringify(parsed));
  return {
    source,
    addBack: async () => {
      await writeFile(stationsCsv, stations);
      await writeFile(statesJson, states);
    },
  };
}

/** Every station's state reported at `time`. */
async function newStates(source: string, time: string): Promise<void> {
  const file = join(source, "states.json");
  const states = JSON.parse(await readFile(file, "utf8")) as { states: { lastUpdate: string }[] };
  for (const state of states.states) state.lastUpdate = time;
  await writeFile(file, JSON.stringify(states));
}

/** The store, with `meanwhile` run once as the first answer goes up. */
function storeRunningAtFirstUpload(meanwhile: () => Promise<void>): ObjectStore {
  const inner = s3Store({ bucket: BUCKET, prefix: PREFIX, endpoint: s3.endpoint });
  let ran: Promise<void> | undefined;
  return {
    ...inner,
    async put(key, body, headers) {
      if (!key.endsWith(".velodata-publish.json")) {
        ran ??= meanwhile();
        await ran;
      }
      return inner.put(key, body, headers);
    },
  };
}

/** The station numbers the store's list of ADDED's contract names, and those it holds an object for. */
async function listedAndHeld(): Promise<{ listed: number[]; held: Set<number> }> {
  const list = JSON.parse(
    (await s3.bytes(`${PREFIX}/vls/v3/stations/${ADDED.contract}`)).toString(),
  ) as { number: number }[];
  const under = `${PREFIX}/vls/v3/stations/${ADDED.contract}/`;
  const held = new Set(
    [...(await s3.keys(under)).keys()].map((key) => Number(key.slice(under.length))),
  );
  return { listed: list.map((station) => station.number), held };
}

describe("velodata publish while a refresh changes the tree", () => {
  it(
    "stops before it uploads a file of the new tree, and the next run publishes it whole",
    async () => {
      const { source, addBack } = await sourceWithoutAdded();
      const out = join(await tempDir(), "out");
      const build = ["build", "--source", source, "--out", out, "--base-url", "https://x.example"];
      expect((await runCli(build)).code).toBe(0);
      const options = {
        out,
        to: `s3://${BUCKET}/${PREFIX}`,
        endpoint: s3.endpoint,
        includeKeyed: true,
        output: memoryOutput(),
      };
      await publish(options);
      // The tree the next run publishes: new states for every station, so that each answer goes up.
      await newStates(source, "2025-02-08T17:00:00Z");
      expect((await runCli(refreshArgs(source, out))).code).toBe(0);
      // The one the refresh during that run makes: the station added, newer states again.
      await addBack();
      await newStates(source, "2025-02-08T17:01:00Z");

      const refresh = async () => {
        const refreshed = await runCli(refreshArgs(source, out));
        expect(refreshed.code, refreshed.stderr).toBe(0);
      };
      const stopped = await publish({ ...options, store: storeRunningAtFirstUpload(refresh) })
        .then(() => undefined)
        .catch((cause: unknown) => cause);
      expect(stopped).toBeInstanceOf(UserError);
      expect((stopped as UserError).message).toBe(
        `the tree at ${out} changed while it was being published (a refresh or build meanwhile): stopped before uploading any file of the new tree`,
      );
      // A reader of the store meanwhile: the list names no station the store does not hold.
      const meanwhile = await listedAndHeld();
      expect(meanwhile.listed.filter((number) => !meanwhile.held.has(number))).toEqual([]);

      const output = memoryOutput();
      await publish({ ...options, output });
      expect(output.lines.join("\n")).toMatch(/left pending by a publish that did not finish/);
      const after = await listedAndHeld();
      expect(after.listed).toContain(ADDED.number);
      expect(after.listed.filter((number) => !after.held.has(number))).toEqual([]);
      const station = await s3.bytes(`${PREFIX}/vls/v3/stations/dublin/${ADDED.number}`);
      expect(JSON.parse(station.toString()).lastUpdate).toBe("2025-02-08T17:01:00Z");
    },
    SCENARIO,
  );
});
