// `velodata publish` end to end: the real CLI, a real S3 server on loopback, trees built and refreshed from the fixtures.
import { spawn } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLISH_STOPPED } from "../../src/commands/publish.js";
import { objectKey } from "../../src/host/object-storage/plan.js";
import { DEFAULT_BASE_URL } from "../../src/publish/default-base-url.js";
import { matchRoute } from "../../src/routes/match-route.js";
import { accessOf, fileOf, ROUTE_LIST, routeOf } from "../../src/routes/routes.js";
import { readTree } from "../../src/tree/read-tree.js";
import { fixtureCopy, ROOT, refreshArgs, runCli, tempDir } from "../helpers.js";
import {
  BUCKET,
  CREDENTIALS,
  startS3WithCredentials,
  type TestS3,
} from "../host/object-storage/s3-server.js";
import { manifestHead } from "../tree/tree-helpers.js";

let s3: TestS3;
beforeAll(async () => {
  s3 = await startS3WithCredentials();
});
afterAll(() => s3.close());

const RECEIPT = ".velodata-publish.json";
// Each scenario builds a tree and publishes it whole more than once through the CLI.
const SCENARIO = 120_000;

async function builtTree(): Promise<{ source: string; out: string }> {
  const source = await fixtureCopy();
  const out = join(await tempDir(), "out");
  // The public address a tree that goes up names (else publish warns, see below).
  const build = ["build", "--source", source, "--out", out, "--base-url", PUBLIC_URL];
  expect((await runCli(build)).code).toBe(0);
  return { source, out };
}

const PUBLIC_URL = "https://api.example.net";

const publishArgs = (out: string, prefix: string, ...more: string[]) => [
  "publish",
  "--out",
  out,
  "--to",
  `s3://${BUCKET}/${prefix}`,
  "--endpoint",
  s3.endpoint,
  ...more,
];

/** What a run with --include-keyed says when it puts keyed answers in a store that holds none yet. */
const KEYED_WARNING =
  /^warning: --include-keyed puts (\d+) keyed answers in the store, where anyone reads them without a key: neither the store nor a CDN in front checks apiKey unless you make the CDN do it \(see docs\/object-storage\.md\)\n/;

async function publishCli(out: string, prefix: string, ...more: string[]): Promise<string> {
  const result = await runCli(publishArgs(out, prefix, ...more));
  // Said by a first run with --include-keyed only (see "says on stderr …" below).
  expect(result.stderr.replace(KEYED_WARNING, "")).toBe("");
  expect(result.code).toBe(0);
  return result.stdout;
}

/** Whether the route table lets an answer go up without --include-keyed. */
function isPublic(path: string): boolean {
  const segments = path.split("/").filter(Boolean).map(decodeURIComponent);
  const match = matchRoute(segments, new URLSearchParams(), path.endsWith("/"));
  return match.kind === "endpoint" && accessOf(match.endpoint) === "public";
}

function roleOf(path: string): string | undefined {
  const segments = path.split("/").filter(Boolean).map(decodeURIComponent);
  const match = matchRoute(segments, new URLSearchParams(), path.endsWith("/"));
  return match.kind === "endpoint" ? routeOf(match.endpoint).role : undefined;
}

/** The key of an answer under a prefix, as `/KEY` (the portal's `/` is `/index.html`). */
const keyOf = (path: string) => `/${objectKey("", path)}`;

/** The tree's manifest as URL path → ETag. */
async function manifest(out: string): Promise<Record<string, string>> {
  const files = readTree(out).manifest?.files ?? {};
  return Object.fromEntries(Object.entries(files).map(([path, entry]) => [path, entry.etag]));
}

/** The tree's answers by URL path. */
async function treeBytes(out: string): Promise<Map<string, Buffer>> {
  const paths = Object.keys(await manifest(out));
  return new Map(
    await Promise.all(
      paths.map(async (path) => [path, await readFile(join(out, fileOf(path)))] as const),
    ),
  );
}

/** Changes `lastUpdate` of every tenth station (or of every station), as a refresh would bring. */
async function newStates(source: string, every: number): Promise<number> {
  const file = join(source, "states.json");
  const states = JSON.parse(await readFile(file, "utf8"));
  let changed = 0;
  states.states.forEach((state: { lastUpdate: string }, index: number) => {
    if (index % every !== 0) return;
    state.lastUpdate = "2025-02-08T17:00:00Z";
    changed++;
  });
  await writeFile(file, JSON.stringify(states));
  return changed;
}

/** Takes station dublin #30 out of the source: its v3 and v1 answers leave the release. */
async function removeDublin30(source: string): Promise<void> {
  const stationsCsv = join(source, "stations.csv");
  const lines = (await readFile(stationsCsv, "utf8")).split("\n");
  const gone = lines.findIndex((line) => line.startsWith("dublin,30,"));
  await writeFile(stationsCsv, lines.filter((_, index) => index !== gone).join("\n"));
  const statesFile = join(source, "states.json");
  const states = JSON.parse(await readFile(statesFile, "utf8"));
  states.states = states.states.filter(
    (state: { contract: string; number: number }) =>
      !(state.contract === "dublin" && state.number === 30),
  );
  await writeFile(statesFile, JSON.stringify(states));
}

const refreshCli = async (source: string, out: string) =>
  expect((await runCli(refreshArgs(source, out))).code).toBe(0);

/** What the store holds for each of the tree's paths under `prefix`, fetched a few at a time. */
async function storeBytes(prefix: string, paths: readonly string[]): Promise<Map<string, Buffer>> {
  const held = new Map<string, Buffer>();
  for (let start = 0; start < paths.length; start += 32) {
    const batch = paths.slice(start, start + 32);
    const bodies = await Promise.all(batch.map((path) => s3.bytes(`${prefix}${keyOf(path)}`)));
    batch.forEach((path, index) => {
      held.set(path, bodies[index] as Buffer);
    });
  }
  return held;
}

const keysUnder = async (prefix: string) =>
  [...(await s3.keys(`${prefix}/`)).keys()]
    .filter((key) => key.startsWith(`${prefix}/`))
    .map((key) => key.slice(prefix.length));

describe("velodata publish", () => {
  it(
    "warns when the tree names this machine as the API's address (built without --base-url)",
    async () => {
      const source = await fixtureCopy();
      const out = join(await tempDir(), "out");
      expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
      const local = await runCli(publishArgs(out, "local"));
      expect(local.code).toBe(0);
      expect(local.stderr).toContain(
        `warning: the tree at ${out} names ${DEFAULT_BASE_URL} as the API's address`,
      );
      const gbfs = await s3.bytes("local/contracts/lyon/gbfs/v3/gbfs.json");
      expect(gbfs.toString()).toContain(DEFAULT_BASE_URL); // published all the same, as said
      const { out: named } = await builtTree();
      expect((await runCli(publishArgs(named, "named"))).stderr).toBe("");
    },
    SCENARIO,
  );

  it(
    "publishes the public answers with their headers, then nothing when nothing changed",
    async () => {
      const { out } = await builtTree();
      const publicPaths = Object.keys(await manifest(out)).filter(isPublic);
      const stdout = await publishCli(out, "public");
      expect(stdout).toMatch(
        new RegExp(
          `^published .* to s3://velodata/public: ${publicPaths.length} uploaded, 0 deleted, 0 unchanged, .* in [\\d.]+ s\n$`,
        ),
      );
      const keys = await keysUnder("public");
      expect(keys.sort()).toEqual([`/${RECEIPT}`, ...publicPaths.map(keyOf)].sort());
      expect(keys).toEqual(
        expect.arrayContaining([
          "/download/velodata-static.zip",
          "/rest/vls/stations/dublin.csv",
          "/rest/vls/stations/dublin.json",
          "/openapi.json",
          "/index.html",
          "/portal/portal.js",
          "/docs/index.html",
          "/docs/swagger-ui-bundle.js",
        ]),
      );
      const portal = await s3.head("public/index.html");
      expect(portal.ContentType).toBe("text/html; charset=utf-8");
      expect(await s3.bytes("public/index.html")).toEqual(await readFile(join(out, "index.html")));
      // Discovery files (the portal among them) name the other answers: they go up after them all.
      const puts = s3.events.map((event) => event.key).filter((key) => key.startsWith("public/"));
      const discovery = publicPaths.filter((path) => roleOf(path) === "discovery").map(keyOf);
      expect(discovery).toContain("/index.html");
      const firstDiscovery = Math.min(...discovery.map((key) => puts.indexOf(`public${key}`)));
      const others = publicPaths.filter((path) => roleOf(path) !== "discovery").map(keyOf);
      expect(Math.max(...others.map((key) => puts.indexOf(`public${key}`)))).toBeLessThan(
        firstDiscovery,
      );
      // The API reference's page after the files it loads: never a page whose script is not up yet.
      const loaded = [
        "/docs/swagger-ui-bundle.js",
        "/docs/docs.js",
        "/docs/docs.css",
        "/openapi.json",
      ];
      expect(Math.max(...loaded.map((key) => puts.indexOf(`public${key}`)))).toBeLessThan(
        puts.indexOf("public/docs/index.html"),
      );
      expect(keys.filter((key) => key.startsWith("/vls/"))).toEqual([]);
      const csv = await s3.head("public/rest/vls/stations/dublin.csv");
      expect(csv.ContentType).toBe("text/csv; charset=utf-8");
      expect(csv.CacheControl).toBe("public, max-age=3600");
      // The plain bytes, which any client reads, asked for gzip or not (curl, urllib, read.csv).
      expect(csv.ContentEncoding).toBeUndefined();
      expect(await s3.stored("public/rest/vls/stations/dublin.csv")).toEqual(
        await readFile(join(out, "rest/vls/stations/dublin.csv")),
      );
      expect(csv.ContentDisposition).toBeUndefined();
      const zip = await s3.head("public/download/velodata-static.zip");
      expect([zip.ContentType, zip.ContentDisposition]).toEqual([
        "application/zip",
        'attachment; filename="velodata-static.zip"',
      ]);
      expect(await s3.bytes("public/download/velodata-static.zip")).toEqual(
        await readFile(join(out, "download/velodata-static.zip")),
      );

      const before = s3.events.length;
      expect(await publishCli(out, "public")).toMatch(
        new RegExp(`: 0 uploaded, 0 deleted, ${publicPaths.length} unchanged, 0 B `),
      );
      expect(s3.events.slice(before)).toEqual([]);
    },
    SCENARIO,
  );

  it(
    "with --include-keyed, uploads the keyed API too; a refresh uploads only what changed, answers before lists",
    async () => {
      const { source, out } = await builtTree();
      const all = Object.keys(await manifest(out)).length;
      expect(await publishCli(out, "keyed", "--include-keyed", "--max-age", "30")).toMatch(
        new RegExp(`: ${all} uploaded, 0 deleted, 0 unchanged`),
      );
      const station = await s3.head("keyed/vls/v3/stations/dublin/42");
      expect(station.ContentType).toBe("application/json");
      expect(station.CacheControl).toBe("public, max-age=30");
      expect((await s3.head("keyed/vls/v3/contracts")).CacheControl).toBe("public, max-age=3600");
      expect((await s3.bytes("keyed/vls/v3/stations/dublin")).toString()).toBe(
        await readFile(join(out, "vls/v3/stations/dublin.json"), "utf8"),
      );
      // Nothing but the release's answers and the receipt: the tree's bookkeeping never goes up.
      const answers = Object.keys(await manifest(out)).map(keyOf);
      expect((await keysUnder("keyed")).sort()).toEqual([...answers, `/${RECEIPT}`].sort());

      const old = await manifest(out);
      const changedStations = await newStates(source, 10);
      await refreshCli(source, out);
      const now = await manifest(out);
      const changed = Object.keys(now).filter((path) => now[path] !== old[path]);
      // Each changed station's v3 and v1 answers, then the lists holding them.
      const stations = changed.filter((path) => /^\/vls\/v[13]\/stations\/[^/]+\/\d+$/.test(path));
      expect(stations).toHaveLength(2 * changedStations);
      expect(changedStations).toBeGreaterThanOrEqual(40); // 10% of 413
      // Besides stations: dynamic answers per contract (lists, GBFS station_status) and the lists of all.
      const dynamic = ROUTE_LIST.filter(
        (route) => route.freshness === "dynamic" && route.served === "release",
      );
      const perContract = dynamic.filter(
        (route) => "contract" in route.params && !("number" in route.params),
      ).length;
      const ofAll = dynamic.filter((route) => Object.keys(route.params).length === 0).length;
      expect(changed.length - stations.length).toBeLessThanOrEqual(5 * perContract + ofAll);

      const before = s3.events.length;
      expect(await publishCli(out, "keyed", "--include-keyed", "--max-age", "30")).toMatch(
        new RegExp(`: ${changed.length} uploaded, 0 deleted, ${all - changed.length} unchanged`),
      );
      const puts = s3.events.slice(before).map((event) => `${event.name} ${event.key}`);
      const receipt = `put keyed/${RECEIPT}`;
      expect(puts[0]).toBe(receipt);
      expect(puts.at(-1)).toBe(receipt);
      const uploads = puts.slice(1, -1);
      expect(uploads.sort()).toEqual(changed.map((path) => `put keyed${path}`).sort());
      const lastStation = Math.max(...stations.map((path) => puts.indexOf(`put keyed${path}`)));
      const firstList = Math.min(
        ...changed
          .filter((path) => roleOf(path) === "list")
          .map((path) => puts.indexOf(`put keyed${path}`)),
      );
      expect(lastStation).toBeLessThan(firstList);
    },
    SCENARIO,
  );

  it(
    "keeps the dynamic answers no longer than the tree's refresh period, the ttl its GBFS feeds give",
    async () => {
      const source = await fixtureCopy();
      const out = join(await tempDir(), "out");
      const build = ["build", "--source", source, "--out", out, "--base-url", PUBLIC_URL];
      expect((await runCli([...build, "--refresh", "30"])).code).toBe(0);
      await publishCli(out, "every30");
      const feed = "every30/contracts/dublin/gbfs/v3/station_status.json";
      expect(JSON.parse((await s3.bytes(feed)).toString()).ttl).toBe(30);
      expect((await s3.head(feed)).CacheControl).toBe("public, max-age=30");
      // The GBFS feeds of the static source too: kept no longer than station_status.
      for (const other of [
        "every30/contracts/dublin/gbfs/v3/station_information.json",
        "every30/gbfs/manifest.json",
      ]) {
        expect(JSON.parse((await s3.bytes(other)).toString()).ttl, other).toBe(30);
        expect((await s3.head(other)).CacheControl, other).toBe("public, max-age=30");
      }
      // The other static answers an hour.
      expect((await s3.head("every30/openapi.json")).CacheControl).toBe("public, max-age=3600");
      // Given, --max-age wins.
      await publishCli(out, "given", "--max-age", "20");
      expect((await s3.head("given/contracts/dublin/gbfs/station_status.json")).CacheControl).toBe(
        "public, max-age=20",
      );
    },
    SCENARIO,
  );

  it(
    "deletes an answer that left the release, after the new ones are up",
    async () => {
      const { source, out } = await builtTree();
      await publishCli(out, "gone", "--include-keyed");
      await removeDublin30(source);
      await refreshCli(source, out);

      const before = s3.events.length;
      // The station's v3 and v1 answers.
      // At once, as given (kept for a while by default, see below).
      expect(await publishCli(out, "gone", "--include-keyed", "--keep-removed", "0")).toMatch(
        / 2 deleted, /,
      );
      const events = s3.events.slice(before).map((event) => `${event.name} ${event.key}`);
      expect(await keysUnder("gone")).not.toContain("/vls/v3/stations/dublin/30");
      expect(await keysUnder("gone")).not.toContain("/vls/v1/stations/dublin/30");
      expect(await keysUnder("gone")).toContain("/vls/v3/stations/dublin/42");
      // Deletions come after every upload, then the receipt closes the run.
      // The source changed, so the static GBFS files (discovery files last) went up again too.
      const lastPut = events.findLastIndex(
        (event) => event.startsWith("put ") && !event.endsWith(RECEIPT),
      );
      expect(events.slice(0, lastPut + 1)).toContain("put gone/vls/v3/stations/dublin");
      expect(events.slice(lastPut + 1).sort()).toEqual(
        [
          "delete gone/vls/v1/stations/dublin/30",
          "delete gone/vls/v3/stations/dublin/30",
          `put gone/${RECEIPT}`,
        ].sort(),
      );
      expect(events.at(-1)).toBe(`put gone/${RECEIPT}`);
      expect((await s3.bytes("gone/vls/v3/stations/dublin")).toString()).not.toContain(
        '"number":30,',
      );
    },
    SCENARIO,
  );

  it(
    "says on stderr that --include-keyed makes the keyed answers public, when none is up yet",
    async () => {
      const { out } = await builtTree();
      const keyed = Object.keys(await manifest(out)).filter((path) => !isPublic(path)).length;
      const said = async (...more: string[]) => {
        const result = await runCli(publishArgs(out, "said", ...more));
        expect([result.code, result.stderr.replace(KEYED_WARNING, "")]).toEqual([0, ""]);
        return KEYED_WARNING.exec(result.stderr)?.[1];
      };
      expect(await said("--include-keyed")).toBe(String(keyed));
      // Not by every run from cron, whose stderr is mailed: the store holds them already.
      expect(await said("--include-keyed", "--max-age", "30")).toBeUndefined();
      // Deleted by a run without the flag, they go up anew with it: said again.
      expect(await said()).toBeUndefined();
      expect(await said("--include-keyed")).toBe(String(keyed));
    },
    SCENARIO,
  );

  it(
    "keeps an answer that left the release --keep-removed seconds, and deletes keyed ones left out at once",
    async () => {
      const { source, out } = await builtTree();
      const keyedPaths = Object.keys(await manifest(out)).filter((path) => !isPublic(path));
      await publishCli(out, "kept", "--include-keyed");
      await publishCli(out, "keyed-gone", "--include-keyed");
      await removeDublin30(source);
      await refreshCli(source, out);
      const leaving = ["kept/vls/v1/stations/dublin/30", "kept/vls/v3/stations/dublin/30"];

      // Kept by default: a cache may still hold the list that names it, up to an hour.
      expect(await publishCli(out, "kept", "--include-keyed")).toMatch(
        / [1-9]\d* uploaded, 0 deleted, 2 kept for later \(no longer in the tree, deleted 3600 s after they left: --keep-removed\), \d+ unchanged, /,
      );
      for (const key of leaving) expect((await s3.keys(key)).has(key), key).toBe(true);
      const receipt = JSON.parse((await s3.bytes(`kept/${RECEIPT}`)).toString());
      const removedAt = receipt.objects[leaving[0] as string].removedAt as string;
      expect(Date.now() - Date.parse(removedAt)).toBeLessThan(SCENARIO);
      const plan = await publishCli(out, "kept", "--include-keyed", "--dry-run");
      expect(plan).toMatch(/^would delete 0 objects, 0 B$/m);
      expect(plan).toMatch(/^would keep 2 objects for later \(no longer in the tree, /m);
      const due = new Date(Date.parse(removedAt) + 3600_000).toISOString();
      expect(plan).toContain(
        `\n  keep ${leaving[0]} until ${due} (no longer in the tree since ${removedAt})\n`,
      );

      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(await publishCli(out, "kept", "--include-keyed", "--keep-removed", "1")).toMatch(
        /: 0 uploaded, 2 deleted, \d+ unchanged, /,
      );
      for (const key of leaving) expect((await s3.keys(key)).has(key), key).toBe(false);

      // Left out, keyed answers stop being public at once, those kept for later among them.
      const stillKeyed = keyedPaths.length - 2;
      expect(await publishCli(out, "keyed-gone", "--include-keyed")).toMatch(/ 2 kept for later /);
      expect(await publishCli(out, "keyed-gone")).toMatch(
        new RegExp(
          `: 0 uploaded, ${stillKeyed + 2} deleted \\(${stillKeyed + 2} keyed, --include-keyed not given\\), \\d+ unchanged, `,
        ),
      );
      expect((await keysUnder("keyed-gone")).filter((key) => key.startsWith("/vls/"))).toEqual([]);
    },
    SCENARIO,
  );

  it("refuses a --keep-removed that is no whole number of seconds a cache may keep an object", async () => {
    for (const value of ["-1", "1.5", "soon", "2147484"]) {
      const refused = await runCli(["publish", "--to", "s3://bucket/x", "--keep-removed", value]);
      expect([refused.code, refused.stderr], value).toEqual([
        1,
        `error: option '--keep-removed <seconds>' argument '${value}' is invalid. must be a whole number of seconds from 0 to 2147483 (about 24 days), in digits\n` +
          "(add --help to see the options)\n",
      ]);
    }
  });

  it(
    "with --gzip, sends the gzip sibling the manifest lists, with Content-Encoding; identity bytes otherwise",
    async () => {
      const { out } = await builtTree();
      const listed = readTree(out).manifest?.files ?? {};
      // The build compresses what is worth it (dublin's list) and leaves small answers plain.
      const big = "/rest/vls/stations/dublin.json";
      const small = "/rest/vls/stations/besancon.csv";
      expect(listed[big]?.variants).toBeDefined();
      expect(listed[small]?.variants).toBeUndefined();

      await publishCli(out, "variants", "--gzip");
      const head = await s3.head(`variants${big}`);
      expect(head.ContentEncoding).toBe("gzip");
      expect(head.ContentType).toBe("application/json");
      expect(await s3.stored(`variants${big}`)).toEqual(
        await readFile(join(out, `${fileOf(big)}.gz`)),
      );
      expect(await s3.bytes(`variants${big}`)).toEqual(await readFile(join(out, fileOf(big))));
      // No sibling listed: the plain bytes, with no encoding.
      expect((await s3.head(`variants${small}`)).ContentEncoding).toBe(undefined);
      expect(await s3.stored(`variants${small}`)).toEqual(await readFile(join(out, fileOf(small))));

      // Back without --gzip: the plain bytes replace the encoded ones (their headers differ).
      expect(await publishCli(out, "variants")).toMatch(/: [1-9]\d* uploaded, /);
      expect((await s3.head(`variants${big}`)).ContentEncoding).toBe(undefined);
      expect(await s3.stored(`variants${big}`)).toEqual(await readFile(join(out, fileOf(big))));
    },
    SCENARIO,
  );

  it(
    "a run killed during its uploads leaves whole old or new answers; the next run completes it",
    async () => {
      const { source, out } = await builtTree();
      await publishCli(out, "killed", "--include-keyed");
      const old = await treeBytes(out);
      await newStates(source, 1);
      await refreshCli(source, out);
      const next = await treeBytes(out);

      const child = spawn(
        process.execPath,
        [
          join(ROOT, "bin/velodata.js"),
          ...publishArgs(out, "killed", "--include-keyed", "--concurrency", "1"),
        ],
        { env: process.env, stdio: "ignore" },
      );
      const killed = new Promise<NodeJS.Signals | null>((resolve) =>
        child.on("close", (_code, signal) => resolve(signal)),
      );
      let uploads = 0;
      s3.onEvent((event) => {
        if (event.key.startsWith("killed/vls/") && ++uploads === 3) child.kill("SIGKILL");
      });
      expect(await killed).toBe("SIGKILL");

      let stillOld = 0;
      const afterKill = await storeBytes("killed", [...next.keys()]);
      for (const [path, bytes] of next) {
        const held = afterKill.get(path) as Buffer;
        const wasOld = held.equals(old.get(path) as Buffer);
        expect(wasOld || held.equals(bytes), path).toBe(true);
        if (wasOld && !bytes.equals(old.get(path) as Buffer)) stillOld++;
      }
      expect(stillOld).toBeGreaterThan(300); // stopped early: most stations and every list still old
      expect(
        (await s3.bytes("killed/vls/v3/stations")).equals(old.get("/vls/v3/stations") as Buffer),
      ).toBe(true);

      // The next run says it completes the stopped one: every object that one was changing goes
      // up again, whatever the store holds (its receipt marks them pending), and none is "changed".
      const plan = await publishCli(out, "killed", "--include-keyed", "--dry-run");
      const again =
        /^would put (\d+) objects \(0 new, 0 changed, \1 again, left pending by a publish that did not finish\)/m;
      expect(plan).toMatch(again);
      expect(plan).toMatch(
        /^ {2}put killed\/\S+ \(again, left pending by a publish that did not finish\)$/m,
      );
      const pending = Number(again.exec(plan)?.[1]);
      expect(pending).toBeGreaterThan(80);
      expect(await publishCli(out, "killed", "--include-keyed")).toContain(
        `: ${pending} uploaded (${pending} again, left pending by a publish that did not finish), 0 deleted, `,
      );
      const completed = await storeBytes("killed", [...next.keys()]);
      for (const [path, bytes] of next) expect(completed.get(path)?.equals(bytes), path).toBe(true);
      expect(await publishCli(out, "killed", "--include-keyed")).toMatch(/: 0 uploaded, 0 deleted/);
    },
    SCENARIO,
  );

  it(
    "a run stopped by SIGTERM says what it leaves, on a line of its own, and ends as killed",
    async () => {
      const { out } = await builtTree();
      const child = spawn(
        process.execPath,
        [
          join(ROOT, "bin/velodata.js"),
          ...publishArgs(out, "stopped", "--include-keyed", "--concurrency", "1"),
        ],
        { env: process.env, stdio: ["ignore", "pipe", "pipe"] },
      );
      let stderr = "";
      child.stderr.on("data", (chunk) => (stderr += chunk));
      const ended = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
        child.on("close", (code, signal) => resolve([code, signal])),
      );
      let uploads = 0;
      s3.onEvent((event) => {
        if (event.key.startsWith("stopped/vls/") && ++uploads === 3) child.kill("SIGTERM");
      });
      expect(await ended).toEqual([null, "SIGTERM"]);
      // After what a first run with --include-keyed says before its first upload.
      expect(stderr.replace(KEYED_WARNING, "")).toBe(`velodata: SIGTERM: ${PUBLISH_STOPPED}\n`);
      // What it says holds: the next run completes it.
      expect(await publishCli(out, "stopped", "--include-keyed")).toMatch(
        /: \d+ uploaded \(\d+ again, left pending by a publish that did not finish\), 0 deleted, /,
      );
    },
    SCENARIO,
  );

  it(
    "says a file that left the tree while it was published is for another run, not a new build",
    async () => {
      const { out } = await builtTree();
      // As a refresh running at the same time leaves it: the manifest read names a file gone.
      const feed = join(
        readTree(out).release.tree,
        fileOf("/contracts/dublin/gbfs/v3/station_status.json"),
      );
      for (const file of [feed, `${feed}.gz`, `${feed}.br`]) await rm(file);
      const result = await runCli(publishArgs(out, "left"));
      expect([result.code, result.stdout]).toEqual([1, ""]);
      expect(result.stderr).toContain(
        `velodata: cannot read ${feed}: it left the tree while it was being published (a refresh or build meanwhile?), or was deleted`,
      );
      expect(result.stderr).toContain("run velodata publish again");
      // Deleted by hand, it would fail so at every run: refresh is what repairs the tree.
      expect(result.stderr).toContain("velodata refresh repairs it");
      expect(result.stderr).not.toContain("build the tree again");
      expect(result.stderr).not.toMatch(/\n\s+at /); // no stack
    },
    SCENARIO,
  );

  it(
    "says plainly what is wrong with the store, without the secret",
    async () => {
      const { out } = await builtTree();
      const missing = await runCli([
        ...["publish", "--out", out, "--to", "s3://no-such-bucket/x"],
        ...["--endpoint", s3.endpoint],
      ]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain("the bucket does not exist");
      expect(missing.stderr).not.toContain("internal error");

      const saved = process.env.AWS_ACCESS_KEY_ID;
      process.env.AWS_ACCESS_KEY_ID = "NOT-A-KEY";
      const refused = await runCli(publishArgs(out, "x"));
      process.env.AWS_ACCESS_KEY_ID = saved;
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("the store refused the credentials (InvalidAccessKeyId)");
      expect(refused.stderr).not.toContain(CREDENTIALS.secretAccessKey);

      const bad = await runCli(["publish", "--out", out, "--to", "https://example/x"]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain("--to must read s3://BUCKET/PREFIX");
      for (const prefix of ["a//b", "a/./b", "../b"]) {
        const odd = await runCli(["publish", "--out", out, "--to", `s3://bucket/${prefix}`]);
        expect([odd.code, odd.stderr]).toEqual([
          1,
          `velodata: --to s3://bucket/${prefix}: the prefix has an empty, "." or ".." part; write it as folder/folder\n`,
        ]);
      }

      const to = ["publish", "--out", out, "--to", "s3://bucket/x", "--endpoint"];
      const ftp = await runCli([...to, "ftp://store.example.org"]);
      expect(ftp.code).toBe(1);
      expect(ftp.stderr).toContain(
        "must start with https:// (or http:// for a store on this network)",
      );
      expect(ftp.stderr).not.toContain("nothing was lost");
      // A secret with a `/` (common in AWS keys) makes a URL that does not parse: still not echoed.
      for (const endpoint of [
        "https://AKID:s3cr3t@store.example.org",
        "https://AKID:s3/cr3t@store.example.org",
        "AKID:s3cr3t@store.example.org:9000",
      ]) {
        const inline = await runCli([...to, endpoint]);
        expect(inline.code, endpoint).toBe(1);
        expect(inline.stderr, endpoint).toContain("--endpoint must not hold credentials");
        expect(inline.stderr, endpoint).not.toContain("cr3t");
      }
      const inBucket = await runCli(["publish", "--out", out, "--to", "s3://AKID:s3cr3t@bucket/x"]);
      expect([inBucket.code, inBucket.stderr]).toEqual([
        1,
        expect.stringContaining("--to must not hold credentials"),
      ]);
      expect(inBucket.stderr).not.toContain("s3cr3t");
      const upper = await runCli(["publish", "--out", out, "--to", "s3://My_Bucket/x"]);
      expect(upper.stderr).toContain('"My_Bucket" is no bucket name');
    },
    SCENARIO,
  );

  it(
    "refuses a tree an older velodata wrote, saying so, until a refresh rewrites it",
    async () => {
      const { source, out } = await builtTree();
      const manifestPath = readTree(out).release.manifest;
      // An older velodata's: one line of JSON.
      const manifest = await manifestHead(manifestPath);
      await writeFile(manifestPath, JSON.stringify({ ...manifest, format: 2 }));

      const older = await runCli(publishArgs(out, "older"));
      expect(older.code).toBe(1);
      expect(older.stderr).toContain(
        "was written by another version of velodata (its manifest has format 2)",
      );
      expect(older.stderr).toContain("run velodata refresh or velodata build");

      const state = join(source, "states.json");
      const refreshed = await runCli([
        "refresh",
        "--source",
        source,
        "--state",
        state,
        "--out",
        out,
        // The older manifest's address is not read: given again.
        "--base-url",
        PUBLIC_URL,
      ]);
      expect(refreshed.code).toBe(0);
      await publishCli(out, "older");
    },
    SCENARIO,
  );
});
