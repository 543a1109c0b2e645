// GBFS in the tree `build` writes, served by a plain static host (`velodata preview`, sirv).

import { readFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../src/commands/build.js";
import { memoryOutput } from "../../src/commands/output.js";
import { preview } from "../../src/commands/preview.js";
import { DEFAULT_BASE_URL } from "../../src/publish/publish.js";
import type { GbfsFeedName, GbfsVersion } from "../../src/publish/render/gbfs/feed.js";
import { fillPattern } from "../../src/routes/pattern.js";
import { ROUTE_LIST } from "../../src/routes/routes.js";
import { readTree } from "../../src/tree/read-tree.js";
import { FIXTURES, tempDir } from "../helpers.js";
import { schemaOf } from "../publish/render/gbfs/gbfs-helpers.js";

const CONTRACTS = ["dublin", "toulouse", "lyon", "nantes", "besancon"];

let out: string;
let base: string;
let close: () => void;
beforeAll(async () => {
  out = join(await tempDir(), "out");
  await build({ source: FIXTURES, out, output: memoryOutput() });
  const server = await preview({ out, port: 0, output: memoryOutput() });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

/** Every GBFS URL path the route table gives the fixtures: each row, each contract, each feed. */
function gbfsPaths(): string[] {
  return ROUTE_LIST.filter((route) => route.tag === "gbfs").flatMap((route) => {
    let values: Record<string, string>[] = [{}];
    for (const [name, type] of Object.entries(route.params)) {
      const choices =
        type.kind === "contract" ? CONTRACTS : type.kind === "oneOf" ? type.values : [];
      values = values.flatMap((known) => choices.map((value) => ({ ...known, [name]: value })));
    }
    return values.map((known) => fillPattern(route.path, known));
  });
}

interface Link {
  name: GbfsFeedName;
  version: GbfsVersion;
  url: string;
}

/** A static host reached at `base` in place of the base URL the tree was built for. */
async function hosted(url: string, version: GbfsVersion, name: GbfsFeedName | "manifest") {
  expect(url.startsWith(DEFAULT_BASE_URL), url).toBe(true);
  const response = await fetch(base + url.slice(DEFAULT_BASE_URL.length));
  expect(response.status, url).toBe(200);
  expect(response.headers.get("content-type"), url).toMatch(/^application\/json/);
  const body = (await response.json()) as { data: unknown };
  const validate = schemaOf(version, name);
  expect(validate(body) ? [] : validate.errors, url).toEqual([]);
  return body;
}

describe("GBFS in the built tree", () => {
  it("holds every GBFS file of every contract, as the route table lays them out", () => {
    const tree = readTree(out);
    const files = Object.keys(tree.manifest?.files ?? {}).filter(
      (path) => path.startsWith("/contracts/") || path.startsWith("/gbfs/"),
    );
    const expected = gbfsPaths();
    // Per contract: v2.3 discovery + 5 feeds at two forms, v3.0 discovery + 5 feeds; the manifest.
    expect(expected).toHaveLength(CONTRACTS.length * (2 * (1 + 5) + 1 + 5) + 1);
    expect(files.sort()).toEqual(expected.sort());
  });

  it("is served by a static host: the manifest, each discovery file and every feed they list", async () => {
    const manifest = await hosted(`${DEFAULT_BASE_URL}/gbfs/manifest.json`, "3.0", "manifest");
    let served = 0;
    for (const dataset of (manifest.data as { datasets: { versions: Link[] }[] }).datasets) {
      for (const { version, url } of dataset.versions) {
        const discovery = await hosted(url, version, "gbfs");
        // v3.0 lists the feeds; v2.3 keys the list by language (one here).
        const lists =
          version === "3.0" ? [discovery.data] : Object.values(discovery.data as object);
        const feeds = lists.flatMap((list) => (list as { feeds: Link[] }).feeds);
        for (const feed of feeds) await hosted(feed.url, version, feed.name);
        served += 1 + feeds.length;
      }
    }
    expect(served).toBe(CONTRACTS.length * 2 * 6);
  });

  it("says in every GBFS file the lifetime a static host's rules give it: the tree's refresh period, station_status's", async () => {
    const tree = readTree(out);
    const period = tree.manifest?.refreshSeconds;
    expect(period).toBe(60);
    const rules = (await readFile(join(tree.release.tree, "_headers"), "utf8")).split("\n\n");
    const gbfsRules = rules.filter((rule) => /^\/(contracts\/:contract\/)?gbfs\//.test(rule));
    // Per version and form (v2.3, its v2 folder, v3.0): discovery and 5 feeds; the manifest.
    expect(gbfsRules).toHaveLength(3 * 6 + 1);
    for (const rule of gbfsRules) {
      const path = (rule.split("\n")[0] as string).replace(":contract", "lyon");
      const { ttl } = JSON.parse(await readFile(join(tree.release.tree, path), "utf8"));
      expect([ttl, /Cache-Control: (.*)/.exec(rule)?.[1]], path).toEqual([
        period,
        `public, max-age=${period}`,
      ]);
    }
  });

  it("serves the v2.3 feeds and discovery file at the v2 folder form too, with the same bytes", async () => {
    for (const feed of ["gbfs", "system_information", "station_status"]) {
      const root = await fetch(`${base}/contracts/nantes/gbfs/${feed}.json`);
      const folder = await fetch(`${base}/contracts/nantes/gbfs/v2/${feed}.json`);
      expect(folder.status, feed).toBe(200);
      expect(await folder.text(), feed).toBe(await root.text());
    }
  });
});
