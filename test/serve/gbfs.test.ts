// GBFS through a real `velodata serve`: every system found from the manifest, every feed valid
// against the official schemas, both URL forms, refreshes, and the contract rules of the paths.
import { afterEach, describe, expect, it } from "vitest";
import type { GbfsFeedName, GbfsVersion } from "../../src/publish/render/gbfs/feed.js";
import { schemaOf } from "../publish/render/gbfs/gbfs-helpers.js";
import { startTestServer, type TestServer } from "./serve-helpers.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.handle.stop();
  server = undefined;
});

interface Link {
  name?: GbfsFeedName;
  version?: GbfsVersion;
  url: string;
}
type Feed = { last_updated: number | string; ttl: number; version: GbfsVersion; data: unknown };

/** Fetches a GBFS URL without a key (GBFS is public), checks 200 and its schema, and returns it. */
async function feed(url: string, version: GbfsVersion, name: GbfsFeedName | "manifest") {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  expect(response.headers.get("content-type"), url).toBe("application/json");
  expect(response.headers.get("access-control-allow-origin"), url).toBe("*");
  const body = (await response.json()) as Feed;
  const validate = schemaOf(version, name);
  expect(validate(body) ? [] : validate.errors, `${url} against v${version}/${name}`).toEqual([]);
  return { body, response };
}

/** The max-age of a public answer's Cache-Control, the only form a GBFS feed is sent with. */
const maxAgeOf = (response: Response): number => {
  const cacheControl = response.headers.get("cache-control") ?? "";
  expect(cacheControl, response.url).toMatch(/^public, max-age=\d+$/);
  return Number(cacheControl.slice("public, max-age=".length));
};

const feedsOf = (discovery: Feed): Link[] => {
  const data = discovery.data as Record<string, Link[] | { feeds: Link[] }>;
  // v3.0 lists the feeds; v2.3 keys the list by language.
  if (Array.isArray(data.feeds)) return data.feeds;
  return Object.values(data).flatMap((language) => (language as { feeds: Link[] }).feeds);
};

describe("GBFS through velodata serve", () => {
  it("finds every system from the manifest, and every URL it names answers a valid feed", async () => {
    server = await startTestServer();
    const base = server.base;
    const { body: manifest } = await feed(`${base}/gbfs/manifest.json`, "3.0", "manifest");
    const datasets = (manifest.data as { datasets: { system_id: string; versions: Link[] }[] })
      .datasets;
    expect(datasets.map((dataset) => dataset.system_id)).toEqual([
      "dublin",
      "toulouse",
      "lyon",
      "nantes",
      "besancon",
    ]);

    let validated = 0;
    for (const dataset of datasets) {
      expect(dataset.versions.map((link) => link.version)).toEqual(["2.3", "3.0"]);
      for (const { version, url } of dataset.versions as Required<Link>[]) {
        // Absolute URLs naming the server itself (it listens on port 0: known only once started).
        expect(url.startsWith(`${base}/contracts/${dataset.system_id}/gbfs/`), url).toBe(true);
        const { body: discovery } = await feed(url, version, "gbfs");
        const links = feedsOf(discovery);
        expect(links.map((link) => link.name).sort()).toEqual([
          "gbfs_versions",
          "station_information",
          "station_status",
          "system_information",
          "vehicle_types",
        ]);
        validated++;
        for (const link of links as Required<Link>[]) {
          const { body } = await feed(link.url, version, link.name);
          validated++;
          if (link.name === "gbfs_versions") {
            const versions = (body.data as { versions: Link[] }).versions;
            expect(versions).toEqual(dataset.versions);
            for (const each of versions as Required<Link>[])
              await feed(each.url, each.version, "gbfs");
          }
        }
      }
    }
    // 5 contracts × 2 versions × (discovery + 5 feeds)
    expect(validated).toBe(60);
  });

  it("answers the v2.3 files at gbfs/{feed}.json and gbfs/v2/{feed}.json with the same bytes, the discovery file too", async () => {
    server = await startTestServer();
    for (const name of [
      "gbfs",
      "gbfs_versions",
      "system_information",
      "vehicle_types",
      "station_information",
      "station_status",
    ] as const) {
      const root = await feed(`${server.base}/contracts/lyon/gbfs/${name}.json`, "2.3", name);
      const folder = await feed(`${server.base}/contracts/lyon/gbfs/v2/${name}.json`, "2.3", name);
      expect(folder.body, name).toEqual(root.body);
      expect(folder.response.headers.get("etag"), name).toBe(root.response.headers.get("etag"));
    }
  });

  it("after a simulated refresh: station_status moves and stays valid, station_information keeps its ETag", async () => {
    server = await startTestServer({ simulate: true, seed: 5, refresh: 120 });
    const url = (path: string) => `${server?.base}/contracts/dublin/gbfs/v3/${path}.json`;
    const information = await feed(url("station_information"), "3.0", "station_information");
    const before = await feed(url("station_status"), "3.0", "station_status");
    const beforeV2 = await feed(
      `${server.base}/contracts/dublin/gbfs/station_status.json`,
      "2.3",
      "station_status",
    );
    expect(before.body.ttl).toBe(120);
    expect(information.body.ttl).toBe(120);
    // Public feeds: any cache may keep them, as on a static host.
    expect(before.response.headers.get("cache-control")).toMatch(/^public, max-age=\d+$/);
    const maxAge = Number(
      before.response.headers.get("cache-control")?.match(/max-age=(\d+)/)?.[1],
    );
    expect(maxAge).toBeLessThanOrEqual(before.body.ttl);

    expect(await server.handle.refreshNow()).toMatchObject({ ok: true });

    const after = await feed(url("station_status"), "3.0", "station_status");
    const afterV2 = await feed(
      `${server.base}/contracts/dublin/gbfs/station_status.json`,
      "2.3",
      "station_status",
    );
    expect(after.response.headers.get("etag")).not.toBe(before.response.headers.get("etag"));
    expect(after.body.data).not.toEqual(before.body.data);
    // Never back (the same second when the refresh follows the start at once: both stamped now).
    expect(Date.parse(after.body.last_updated as string)).toBeGreaterThanOrEqual(
      Date.parse(before.body.last_updated as string),
    );
    expect(afterV2.body.last_updated as number).toBeGreaterThanOrEqual(
      beforeV2.body.last_updated as number,
    );
    expect(afterV2.body.last_updated).toBe(Date.parse(after.body.last_updated as string) / 1000);
    const informationAfter = await fetch(url("station_information"));
    expect(informationAfter.headers.get("etag")).toBe(information.response.headers.get("etag"));
    // The same stations in both files of the new release.
    const ids = (body: Feed) =>
      (body.data as { stations: { station_id: string }[] }).stations.map((s) => s.station_id);
    expect(ids(after.body)).toEqual(ids(information.body));
  });

  it("keeps every feed no longer than station_status: its ttl the refresh period, its Cache-Control the seconds to the next refresh", async () => {
    server = await startTestServer({ refresh: 120 });
    // Every GBFS URL of one contract, and the manifest: as a consumer finds them.
    const urls = new Map<string, [GbfsVersion, GbfsFeedName | "manifest"]>([
      [`${server.base}/gbfs/manifest.json`, ["3.0", "manifest"]],
      [`${server.base}/contracts/lyon/gbfs/gbfs.json`, ["2.3", "gbfs"]],
      [`${server.base}/contracts/lyon/gbfs/v2/gbfs.json`, ["2.3", "gbfs"]],
      [`${server.base}/contracts/lyon/gbfs/v3/gbfs.json`, ["3.0", "gbfs"]],
    ]);
    for (const [url, [version]] of [...urls].slice(1)) {
      for (const link of feedsOf((await feed(url, version, "gbfs")).body) as Required<Link>[]) {
        urls.set(link.url, [version, link.name]);
        // v2.3's feeds at their v2 folder form too, the same files.
        if (version === "2.3")
          urls.set(link.url.replace("/gbfs/", "/gbfs/v2/"), [version, link.name]);
      }
    }
    // The manifest, 3 discovery files, 2 × 5 v2.3 feeds and 5 v3.0 feeds.
    expect(urls.size).toBe(19);
    for (const [url, [version, name]] of urls) {
      const { body, response } = await feed(url, version, name);
      expect(body.ttl, url).toBe(120);
      expect(maxAgeOf(response), url).toBeLessThanOrEqual(120);
      // Counting down to the same refresh (a second may pass between two answers).
      expect(maxAgeOf(response), url).toBeGreaterThan(110);
    }
    // Asked again with its ETag, a feed unchanged is a 304, with the same lifetime.
    const information = `${server.base}/contracts/lyon/gbfs/v3/station_information.json`;
    const etag = (await fetch(information)).headers.get("etag") ?? "";
    const again = await fetch(information, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(maxAgeOf(again)).toBeGreaterThan(110);
    // The API's static answers are kept an hour, as before.
    expect((await server.get("/vls/v3/contracts")).headers.get("cache-control")).toBe(
      "private, max-age=3600",
    );
    expect((await fetch(`${server.base}/openapi.json`)).headers.get("cache-control")).toBe(
      "public, max-age=3600",
    );
  });

  it("matches the contract without regard to case, and answers 404 for an unknown one", async () => {
    server = await startTestServer();
    for (const path of [
      "/contracts/{c}/gbfs/gbfs.json",
      "/contracts/{c}/gbfs/station_information.json",
      "/contracts/{c}/gbfs/v2/station_status.json",
      "/contracts/{c}/gbfs/v3/gbfs.json",
      "/contracts/{c}/gbfs/v3/system_information.json",
    ]) {
      const lower = await fetch(server.base + path.replace("{c}", "dublin"));
      const mixed = await fetch(server.base + path.replace("{c}", "DubLin"));
      expect(mixed.status, path).toBe(200);
      expect(Buffer.from(await mixed.arrayBuffer()), path).toEqual(
        Buffer.from(await lower.arrayBuffer()),
      );
      const unknown = await fetch(server.base + path.replace("{c}", "atlantis"));
      expect(unknown.status, path).toBe(404);
      expect(await unknown.json(), path).toEqual({ error: "Resource Not Found" });
    }
    const noFeed = await fetch(`${server.base}/contracts/dublin/gbfs/v3/free_bike_status.json`);
    expect(noFeed.status).toBe(404);
    expect(await noFeed.json()).toEqual({ error: "Resource Not Found" });
  });
});
