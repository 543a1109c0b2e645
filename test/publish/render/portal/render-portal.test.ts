// The portal renderer: deterministic, escaped, no inline code, GBFS auto-discovery, a size that does not grow with the stations.
import { symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { publish } from "../../../../src/publish/publish.js";
import { buildPortalInput } from "../../../../src/publish/render/portal/build-portal-input.js";
import type { PortalInput } from "../../../../src/publish/render/portal/portal-input.js";
import { renderPortal } from "../../../../src/publish/render/portal/render-portal.js";
import { HTML_TYPE, routeOf } from "../../../../src/routes/routes.js";
import { formatProblem } from "../../../../src/source/problems.js";
import { readDataset } from "../../../../src/source/read-dataset.js";
import { fixtureCopy } from "../../../helpers.js";
import { fixtureDataset, GENERATED_AT } from "../../publish-helpers.js";

async function input(extra: Partial<PortalInput> = {}, gbfs = false): Promise<PortalInput> {
  const dataset = await fixtureDataset();
  const { release } = await publish(dataset, { generatedAt: GENERATED_AT });
  const paths = gbfs
    ? {
        gbfs: (c: string) => ({
          discovery: `/contracts/${c}/gbfs/gbfs.json`,
          discoveryV3: `/contracts/${c}/gbfs/v3/gbfs.json`,
          stationInformation: `/contracts/${c}/gbfs/v3/station_information.json`,
          stationStatus: `/contracts/${c}/gbfs/v3/station_status.json`,
        }),
        openapi: "/openapi.json",
      }
    : {};
  const built = buildPortalInput(dataset, release.files, { generatedAt: GENERATED_AT, paths });
  return { ...built, ...extra };
}

const page = (value: PortalInput): string => {
  const file = renderPortal(value).find((f) => f.endpoint === "portal");
  return file?.body.toString("utf8") ?? "";
};

describe("renderPortal", () => {
  it("gives the same bytes for the same input", async () => {
    const value = await input({}, true);
    const first = renderPortal(value);
    const second = renderPortal(structuredClone(value));
    expect(second.map((f) => [f.endpoint, f.body.toString("base64")])).toEqual(
      first.map((f) => [f.endpoint, f.body.toString("base64")]),
    );
  });

  it("keeps the published page's bytes across refreshes, so its ETag stays stable", async () => {
    const dataset = await fixtureDataset();
    const etag = async (at: string) =>
      (await publish(dataset, { generatedAt: new Date(at) })).release.files.get("/")?.etag;
    expect(await etag("2026-01-01T00:00:00Z")).toBeDefined();
    expect(await etag("2026-01-01T00:00:00Z")).toBe(await etag("2026-06-01T12:00:00Z"));
  });

  it("dates the page and the bundle's data package by the static source's last change, never by a refresh", async () => {
    const dataset = await fixtureDataset();
    // The GBFS feeds' time, and the data's (parkings edited since): the second dates the bundle.
    const staticUpdatedAt = new Date("2025-01-01T00:00:00Z");
    const dataUpdatedAt = new Date("2025-02-08T16:44:06.500Z");
    const made = async (at: string) => {
      const options = { generatedAt: new Date(at), staticUpdatedAt, dataUpdatedAt };
      const { files } = (await publish(dataset, options)).release;
      const zip = Buffer.concat(files.get("/download/velodata-static.zip")?.body ?? []);
      const descriptor = JSON.parse(
        Buffer.from(unzipSync(zip)["datapackage.json"] as Uint8Array).toString("utf8"),
      );
      return { page: Buffer.concat(files.get("/")?.body ?? []).toString("utf8"), descriptor };
    };
    const first = await made("2026-01-01T00:00:00Z");
    expect(first.page).toContain(
      'Static data as of <time datetime="2025-02-08T16:44:06.500Z">2025-02-08 16:44:06 UTC</time>.',
    );
    expect(first.descriptor.created).toBe("2025-02-08T16:44:06Z");
    expect(await made("2026-06-01T12:00:00Z")).toEqual(first);
  });

  it("escapes the operator's text and the data", async () => {
    const html = page(await input({ serviceName: 'Bikes <script>alert("x")</script>' }));
    expect(html).toContain("Bikes &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("Vélo&#39;v");
  });

  it("has no inline script, handler or style that a strict CSP would refuse", async () => {
    for (const file of renderPortal(await input({}, true))) {
      if (routeOf({ name: file.endpoint }).contentType !== HTML_TYPE) continue;
      const html = file.body.toString("utf8");
      expect(html.match(/<script(?![^>]*\ssrc=)[^>]*>/g) ?? [], file.endpoint).toEqual([]);
      expect(html.match(/\s(on[a-z]+|style)=/g) ?? [], file.endpoint).toEqual([]);
      expect(html).not.toContain("<style");
    }
  });

  it("carries its own Content-Security-Policy, letting the reference ask the API at its base URL", async () => {
    const dataset = await fixtureDataset();
    const policies = async (baseUrl?: string) => {
      const { release } = await publish(dataset, { generatedAt: GENERATED_AT, baseUrl });
      return ["/", "/docs/"].map((path) => {
        const html = Buffer.concat(release.files.get(path)?.body ?? []).toString("utf8");
        // As the browser reads the attribute: its quotes escaped in the markup.
        const content = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
        return content?.[1]?.replaceAll("&#39;", "'");
      });
    };
    const [portal, reference] = await policies("https://api.example.org/bikes");
    expect(portal).toBe(
      "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'",
    );
    expect(reference).toBe(
      "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self' https://api.example.org; object-src 'none'; base-uri 'none'; form-action 'self'",
    );
    // Without a public base URL, the reference asks the host it is served from.
    expect((await policies())[1]).toContain("connect-src 'self';");
  });

  it("spells the key placeholder as the specification does", async () => {
    const html = page(await input());
    expect(html).toContain("/vls/v3/stations?contract=dublin&amp;apiKey=&lt;API_KEY&gt;");
  });

  it("links each contract's GBFS discovery file for auto-discovery, only when GBFS is published", async () => {
    const html = page(await input({}, true));
    const links = html.match(/<link rel="gbfs"[^>]*>/g) ?? [];
    expect(links).toHaveLength(5);
    expect(links[0]).toBe(
      '<link rel="gbfs" type="application/json" href="contracts/dublin/gbfs/v3/gbfs.json" title="dublinbikes">',
    );
    expect(page(await input())).not.toContain('rel="gbfs"');
  });

  it("stays the same size however many stations a contract has", async () => {
    const dataset = await fixtureDataset();
    const dublin = dataset.stations.filter((s) => s.contract === "dublin");
    const extra = Array.from({ length: 5000 }, (_, i) => ({
      ...(dublin[0] as (typeof dublin)[number]),
      number: 90_000 + i,
    }));
    const bigger = { ...dataset, stations: [...dataset.stations, ...extra] };
    const pageOf = (value: typeof dataset) => page(buildPortalInput(value, new Map(), {}));
    const before = pageOf(dataset);
    const after = pageOf(bigger);
    // Only the station count changes, where the contracts table and the map's heading give it.
    const count = (n: number) => [
      `<td class="num">${n.toLocaleString("en")}</td>`,
      `${n.toLocaleString("en")} stations`,
    ];
    const expected = count(dublin.length).reduce(
      (text, old, i) => text.replace(old, count(dublin.length + 5000)[i] as string),
      before,
    );
    expect(after).toBe(expected);
    expect(after).not.toBe(before);
  });

  it("counts one station in the singular, and isolates each name from the count after it", async () => {
    const built = await input();
    const [first, ...rest] = built.contracts;
    if (!first) throw new Error("no contract in the fixtures");
    const html = page({ ...built, contracts: [{ ...first, stationCount: 1 }, ...rest] });
    // A name in Arabic or Hebrew would otherwise carry the number after it to its left.
    expect(html).toContain(
      `<h3><bdi>${first.commercialName}</bdi> <span class="count">1 station</span></h3>`,
    );
    for (const contract of rest)
      expect(html).toContain(`<span class="count">${contract.stationCount} stations</span>`);
  });

  it("points each contract's map at its GBFS station_information and station_status", async () => {
    const html = page(await input({}, true));
    expect(html).toContain(
      '<div class="contract-map" data-contract="dublin" data-information="contracts/dublin/gbfs/v3/station_information.json" data-status="contracts/dublin/gbfs/v3/station_status.json">',
    );
    expect(page(await input())).toContain("publishes no GBFS feeds to draw the map from");
  });

  it("names the public base URL in its requests and API reference when one is given, else its own host", async () => {
    const dataset = await fixtureDataset();
    const baseOf = async (options: { baseUrl?: string; portalBaseUrl?: string | null }) => {
      const { release } = await publish(dataset, { generatedAt: GENERATED_AT, ...options });
      return ["/", "/docs/"].map((path) => {
        const html = Buffer.concat(release.files.get(path)?.body ?? []).toString("utf8");
        return /data-base="([^"]*)"/.exec(html)?.[1];
      });
    };
    const api = "https://api.example.org/bikes";
    expect(await baseOf({ baseUrl: api })).toEqual([api, api]);
    // Written whole in the page: ready to copy without the script.
    const { release } = await publish(dataset, { generatedAt: GENERATED_AT, baseUrl: api });
    const portal = Buffer.concat(release.files.get("/")?.body ?? []).toString("utf8");
    expect(portal).toContain(`>${api}/vls/v3/contracts?apiKey=&lt;API_KEY&gt;</code>`);
    expect(await baseOf({})).toEqual(["", ""]);
    // The stand-in of a build without --base-url, and a server's own address (any name reaches it).
    expect(await baseOf({ baseUrl: "http://127.0.0.1:8080" })).toEqual(["", ""]);
    expect(await baseOf({ baseUrl: "http://127.0.0.1:9000", portalBaseUrl: null })).toEqual([
      "",
      "",
    ]);
  });

  it("gives the bundle one licence only when every contract states the same one", async () => {
    const dataset = await fixtureDataset();
    const bundleRow = async (licenses: ({ id: string } | undefined)[]) => {
      const contracts = dataset.contracts.map((contract, at) => {
        const { license: _, ...rest } = contract;
        return licenses[at] ? { ...rest, license: { url: null, ...licenses[at] } } : rest;
      });
      const { release } = await publish({ ...dataset, contracts } as never, {
        generatedAt: GENERATED_AT,
      });
      const html = Buffer.concat(release.files.get("/")?.body ?? []).toString("utf8");
      return /velodata-static\.zip.*?<\/tr>/s.exec(html)?.[0] ?? "";
    };
    const odbl = { id: "ODbL-1.0" };
    const every = dataset.contracts.map(() => odbl);
    expect(await bundleRow(every)).toContain("ODbL-1.0");
    // The fixtures: two contracts under ODbL, three stating none.
    expect(await bundleRow([undefined, undefined, odbl, odbl, undefined])).toContain(
      "<td>differs by contract (see the contracts above)</td>",
    );
    expect(await bundleRow([odbl, { id: "CC-BY-4.0" }, odbl, odbl, odbl])).toContain(
      "differs by contract",
    );
    expect(await bundleRow([])).toContain("<td>not stated</td>");
  });

  it("names whom to credit beside each contract's licence: its operator, linked", async () => {
    const html = page(await input());
    // The fixtures' Dublin: CC BY 4.0, which asks every reuse to credit JCDecaux Ireland.
    expect(html).toContain(
      'CC-BY-4.0, credit: <bdi><a href="https://www.dublinbikes.ie">JCDecaux Ireland</a></bdi></td>',
    );
    const dataset = await fixtureDataset();
    const unnamed = dataset.contracts.map(({ operator: _, ...rest }) => rest);
    const { release } = await publish({ ...dataset, contracts: unnamed } as never, {
      generatedAt: GENERATED_AT,
    });
    const without = Buffer.concat(release.files.get("/")?.body ?? []).toString("utf8");
    expect(without).toContain(">CC-BY-4.0</td>");
    expect(without).not.toContain("credit:");
  });

  it("names each download and feed link whole, for a screen reader's list of links", async () => {
    const html = page(await input({}, true));
    expect(html).toContain('aria-label="dublinbikes, GBFS v3.0">v3.0</a>');
    expect(html).toMatch(/aria-label="Stations of [^"]+ \(CSV\)"/);
    expect(html).toMatch(/aria-label="Stations of [^"]+ \(JSON\)"/);
  });

  it("ships the API reference only with an OpenAPI document to show", async () => {
    const without = renderPortal(await input()).map((f) => f.endpoint);
    const withDocs = renderPortal(await input({}, true)).map((f) => f.endpoint);
    expect(without).not.toContain("docs");
    expect(withDocs).toContain("docs");
    expect(withDocs).toContain("swaggerScript");
  });
});

/**
 * The portal page (or another of its pages, by path) published from the fixtures with `settings`
 * as their portal.json (none: without).
 */
async function portalPage(settings?: unknown, path = "/"): Promise<string> {
  const source = await fixtureCopy();
  if (settings !== undefined)
    await writeFile(join(source, "portal.json"), JSON.stringify(settings));
  const { dataset } = await readDataset(source);
  const { release } = await publish(dataset as never, { generatedAt: GENERATED_AT });
  return Buffer.concat(release.files.get(path)?.body ?? []).toString("utf8");
}

describe("portal.json", () => {
  it("puts the operator's words on the page", async () => {
    const html = await portalPage({
      serviceName: "Open Bikes",
      keys: { text: "Write to us.", url: "https://example.org/keys" },
    });
    expect(html).toContain("<h1>Open Bikes</h1>");
    expect(html).toContain('Write to us. <a href="https://example.org/keys">Ask for a key</a>.');
  });

  it("without one, says a key is needed and whom to ask, and claims no price the operator did not", async () => {
    const html = await portalPage();
    const keys = /<p class="keys">(.*?)<\/p>/s.exec(html)?.[1];
    expect(keys).toContain("The API needs a key: ask the operator of this deployment for one.");
    expect(keys).not.toMatch(/\bfree\b|charge/i);
  });

  it("takes a link alone, with words of its own that point at it rather than at the operator", async () => {
    const html = await portalPage({ keys: { url: "https://example.org/keys" } });
    const keys = /<p class="keys">(.*?)<\/p>/s.exec(html)?.[1];
    expect(keys).toBe(
      "The API needs a key; the downloads, the GBFS feeds and the OpenAPI document need none." +
        ' <a href="https://example.org/keys">Ask for a key</a>.',
    );
  });

  it("takes an address to ask for a key at, shown beside its mailto: link", async () => {
    const keys = {
      text: "Keys are free.",
      url: "mailto:open-data%40example.org?subject=API%20key",
    };
    const html = await portalPage({ keys });
    expect(html).toContain(
      'Keys are free. Ask for a key: <a href="mailto:open-data%40example.org?subject=API%20key">open-data@example.org</a>.',
    );
  });

  it.each([
    ["mailto:", "must be mailto: and one e-mail address, e.g. mailto:open-data@example.org"],
    [
      "mailto:open data@example.org",
      "must be mailto: and one e-mail address, e.g. mailto:open-data@example.org",
    ],
    [
      "mailto:a@example.org,b@example.org",
      "must be mailto: and one e-mail address, e.g. mailto:open-data@example.org",
    ],
    [
      "ftp://example.org/keys",
      "must be an http or https URL, e.g. https://example.org/open-data, or mailto: an address",
    ],
  ])("refuses the keys link %j, saying what it takes", async (url, said) => {
    const source = await fixtureCopy();
    await writeFile(join(source, "portal.json"), JSON.stringify({ keys: { text: "Ask.", url } }));
    const { problems } = await readDataset(source);
    expect(problems.filter((p) => p.severity === "error").map(formatProblem)).toEqual([
      `${join(source, "portal.json")} keys.url: ${said}`,
    ]);
  });

  it("marks the operator's words with their language, the page's own staying English", async () => {
    const html = await portalPage({
      serviceName: "Vélos ouverts",
      description: "Les données des vélos en libre-service.",
      keys: { text: "Écrivez-nous.", url: "https://example.org/cles" },
      language: "FR-ch",
    });
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<h1 lang="fr-CH">Vélos ouverts</h1>');
    expect(html).toContain('<p lang="fr-CH">Les données des vélos en libre-service.</p>');
    expect(html).toContain(
      '<span lang="fr-CH">Écrivez-nous.</span> <a href="https://example.org/cles">Ask for a key</a>.',
    );
  });

  it("leaves the words velodata fills in unmarked: they are the page's English, not the operator's language", async () => {
    const settings = {
      serviceName: "Vélos ouverts",
      keys: { url: "https://example.org/cles" },
      language: "fr",
    };
    const html = await portalPage(settings);
    expect(html).toContain('<h1 lang="fr">Vélos ouverts</h1>');
    expect(html).toMatch(/<p>Open data on public bike-sharing stations/);
    expect(html).toContain(
      '<p class="keys">The API needs a key; the downloads, the GBFS feeds and the OpenAPI document need none. <a',
    );
    // The API reference's link back names the service in its language too.
    expect(await portalPage(settings, "/docs/")).toContain(
      '<a href="../">Back to <span lang="fr">Vélos ouverts</span></a>',
    );
  });

  it("refuses a language that is no language tag", async () => {
    const source = await fixtureCopy();
    await writeFile(join(source, "portal.json"), JSON.stringify({ language: "French" }));
    const { dataset, problems } = await readDataset(source);
    expect(dataset).toBeUndefined();
    expect(problems.filter((p) => p.severity === "error").map(formatProblem)).toEqual([
      `${join(source, "portal.json")} language: must be a language tag (BCP 47), e.g. "fr" or "de-CH"`,
    ]);
  });

  it("reports a wrong field with its file and name", async () => {
    const source = await fixtureCopy();
    await writeFile(join(source, "portal.json"), JSON.stringify({ keys: { url: "not a url" } }));
    const { dataset, problems } = await readDataset(source);
    expect(dataset).toBeUndefined();
    const lines = problems.filter((p) => p.severity === "error").map(formatProblem);
    expect(lines).toEqual([expect.stringMatching(/portal\.json keys\.url: .*URL/i)]);
  });

  it("refuses a field given twice, which JSON would keep the last of silently", async () => {
    const source = await fixtureCopy();
    await writeFile(
      join(source, "portal.json"),
      '{"serviceName": "Open Bikes", "keys": {"text": "Write to us.", "text": "Ask us."}}',
    );
    const { dataset, problems } = await readDataset(source);
    expect(dataset).toBeUndefined();
    expect(problems.filter((p) => p.severity === "error").map(formatProblem)).toEqual([
      expect.stringMatching(/^.*portal\.json keys\.text: is given twice in the file /),
    ]);
  });

  it("reports a portal.json that links to no file, instead of doing without it", async () => {
    const source = await fixtureCopy();
    await symlink("settings/portal.json", join(source, "portal.json"));
    await expect(readDataset(source)).rejects.toThrow(
      `${join(source, "portal.json")} is a link to settings/portal.json, which does not exist: fix the link`,
    );
  });

  it("refuses a link that is not http(s): it would be written into the page as it is", async () => {
    const source = await fixtureCopy();
    const keys = { text: "Write to us.", url: "javascript:alert(1)" };
    await writeFile(join(source, "portal.json"), JSON.stringify({ keys }));
    const { dataset, problems } = await readDataset(source);
    expect(dataset).toBeUndefined();
    expect(problems.filter((p) => p.severity === "error").map(formatProblem)).toEqual([
      `${join(source, "portal.json")} keys.url: must be an http or https URL, e.g. https://example.org/open-data, or mailto: an address`,
    ]);
  });
});
