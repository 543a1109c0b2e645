/// <reference lib="dom" />
// The portal in a real browser (headless Chromium): on sirv-cli over the tree, and on `velodata serve`.
import { readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEY_PLACEHOLDER } from "../../../../src/publish/render/portal/portal-input.js";
import type { Dataset } from "../../../../src/source/dataset.js";
import {
  CHROMIUM,
  HAS_CHROMIUM,
  MUST_HAVE_CHROMIUM,
  type StaticHost,
  startSirv,
  TEST_OUTPUT,
} from "../../../browser.js";
import { tempDir } from "../../../helpers.js";
import { startTestServer, type TestServer } from "../../../serve/serve-helpers.js";
import { writePortalTree } from "./portal-tree.js";
import { READER_ZONE, readerTime } from "./reader-zone.js";

interface Opened {
  page: Page;
  problems: string[];
}

let browser: Browser;
let sirv: StaticHost;
let server: TestServer;
let dataset: Dataset;

/**
 * Opens a page and records what a person would never want: console errors, failed or foreign
 * requests. In the browser's default context, or in one of the test's (permissions, init scripts).
 */
async function open(url: string, context: Browser | BrowserContext = browser): Promise<Opened> {
  const page = await context.newPage();
  const problems: string[] = [];
  const origin = new URL(url).origin;
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`failed: ${r.url()}`));
  page.on("response", (r) => r.status() >= 400 && problems.push(`${r.status()}: ${r.url()}`));
  page.on("request", (r) => {
    if (!r.url().startsWith(origin) && !r.url().startsWith("data:"))
      problems.push(`foreign: ${r.url()}`);
  });
  await page.goto(url, { waitUntil: "networkidle" });
  return { page, problems };
}

/** Every same-origin link of the page, fetched: each must answer 200. */
async function linkStatuses(page: Page): Promise<Map<string, number>> {
  const hrefs: string[] = await page.$$eval("a[href]", (links) =>
    links.map((a) => (a as HTMLAnchorElement).href),
  );
  const origin = new URL(page.url()).origin;
  const statuses = new Map<string, number>();
  for (const href of new Set(hrefs)) {
    const url = new URL(href);
    if (url.origin !== origin || url.hash) continue;
    statuses.set(href, (await fetch(url)).status);
  }
  return statuses;
}

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** What axe-core finds against WCAG 2.1 A and AA on the page as it is now: rule, impact, where. */
async function wcagViolations(page: Page): Promise<string[]> {
  // Judged at rest: Swagger UI's buttons move their colours over 0.3 s when it re-renders them
  // (its Execute button after a request), and a colour half-way was once found short of contrast
  // on a loaded machine. Endless ones (a spinner) are not waited for.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter(
          (animation) => animation.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY,
        )
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  // Run by the browser's devtools, not as a script tag: the pages' policy allows no script of
  // another's, inline or not (and says so as a console error, which the tests count).
  await page.evaluate(readFileSync(AXE, "utf8"));
  const tags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
  const found = await page.evaluate(
    (runOnly) =>
      (
        window as unknown as {
          axe: {
            run(options: object): Promise<{
              violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
            }>;
          };
        }
      ).axe.run({ runOnly }),
    tags,
  );
  return found.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.nodes
        .map((node) => node.target.join(" "))
        .slice(0, 3)
        .join(", ")}${violation.nodes.length > 3 ? `, … ${violation.nodes.length} in all` : ""}`,
  );
}

const requestsShown = (page: Page): Promise<string[]> =>
  page.$$eval("code[data-request]", (codes) => codes.map((c) => c.textContent ?? ""));

/** What the page's polite live regions say now: an init script, for the tests' `waitForFunction`s. */
function defineSaidAloud() {
  (window as unknown as { saidAloud: () => string[] }).saidAloud = () =>
    Array.from(document.querySelectorAll('[aria-live="polite"], [role="status"]'))
      .map((region) => region.textContent?.replace(/\s+/g, " ").trim() ?? "")
      .filter(Boolean);
}
declare function saidAloud(): string[];

/** A copy that fails: said in a live region, plainly, and the request selected to copy by hand. */
async function expectCopyByHand(page: Page): Promise<void> {
  const request = (await requestsShown(page))[2] as string;
  const button = page.locator("button.copy").nth(2);
  expect(await button.isVisible()).toBe(true);
  await button.click();
  await page.waitForFunction(() => saidAloud().some((text) => /could not copy/i.test(text)), null, {
    timeout: 5_000,
  });
  const said = (await page.evaluate(() => saidAloud())).find((text) =>
    /could not copy/i.test(text),
  );
  expect(said).toMatch(/selected/);
  expect(await page.evaluate(() => window.getSelection()?.toString())).toBe(request);
  // Nothing says it was copied.
  expect(await button.textContent()).toBe("Copy");
}

describe.skipIf(!HAS_CHROMIUM)("portal in a browser", () => {
  beforeAll(async () => {
    const out = join(await tempDir(), "out");
    dataset = await writePortalTree(out);
    sirv = await startSirv(out);
    server = await startTestServer();
    // The page says its times in the reader's zone: the browser's is pinned, whatever the machine's.
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      env: { ...process.env, TZ: READER_ZONE },
    });
    await mkdir(TEST_OUTPUT, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    sirv?.stop();
    await server?.handle.close();
  });

  it("renders on a static host with no console error, no failed or foreign request", async () => {
    const { page, problems } = await open(`${sirv.url}/`);
    await page.waitForSelector("#live-data[data-at]");
    expect(problems).toEqual([]);
    expect(await page.title()).toContain("velodata");
    await page.screenshot({ path: join(TEST_OUTPUT, "portal.png"), fullPage: true });
    // A small phone's width (iPhone SE, most Android phones: 360-375 px).
    await page.setViewportSize({ width: 360, height: 800 });
    await page.screenshot({ path: join(TEST_OUTPUT, "portal-phone.png"), fullPage: false });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth > window.innerWidth,
    );
    expect(overflow).toBe(false);
    // Each contract's licence and whom to credit, shown on a phone too: a reuse must name them.
    const licences = page.locator("#contracts tbody tr td:last-child");
    expect(await licences.count()).toBe(dataset.contracts.length);
    for (let at = 0; at < dataset.contracts.length; at++)
      expect(await licences.nth(at).isVisible()).toBe(true);
    expect(await page.locator("#contracts tbody").textContent()).toContain(
      "credit: JCDecaux Ireland",
    );
  });

  it("runs under its own policy: a script injected inline is refused", async () => {
    for (const path of ["/", "/docs/"]) {
      const { page, problems } = await open(`${sirv.url}${path}`);
      await expect(page.addScriptTag({ content: "window.injected = true;" })).rejects.toThrow(
        /Content Security Policy/,
      );
      expect(await page.evaluate(() => "injected" in window), path).toBe(false);
      expect(problems.join("\n"), path).toContain("Content Security Policy");
    }
  });

  it("links only to answers that exist: every same-origin link answers 200", async () => {
    const { page } = await open(`${sirv.url}/`);
    const statuses = await linkStatuses(page);
    expect(statuses.size).toBeGreaterThan(10);
    expect([...statuses].filter(([, status]) => status !== 200)).toEqual([]);
  });

  it("shows requests that the keyed API answers with 200 once the key is put in", async () => {
    const { page } = await open(`${sirv.url}/`);
    const requests = await requestsShown(page);
    expect(requests.length).toBeGreaterThanOrEqual(6);
    for (const request of requests) {
      expect(request).toContain(`apiKey=${KEY_PLACEHOLDER}`);
      // The page shows its own origin; the keyed API is the server's.
      const path = request.slice(sirv.url.length).replace(KEY_PLACEHOLDER, server.key);
      const response = await fetch(`${server.base.replace(/\/$/, "")}${path}`);
      expect([path, response.status]).toEqual([path, 200]);
    }
    // Each copy button is named by the request it copies, not "Copy" ten times over.
    const labels = await page.$$eval("button.copy:not([hidden])", (buttons) =>
      buttons.map((button) => button.getAttribute("aria-label")),
    );
    expect(labels).toEqual(requests.map((request) => `Copy ${request}`));
  });

  it("says a copy in a polite live region, the button named as it reads, and says it no more a moment later", async () => {
    const context = await browser.newContext({
      permissions: ["clipboard-read", "clipboard-write"],
    });
    await context.addInitScript(defineSaidAloud);
    try {
      const { page, problems } = await open(`${sirv.url}/`, context);
      const request = (await requestsShown(page))[1] as string;
      const button = page.locator("button.copy").nth(1);
      await button.click();
      await page.waitForFunction(() => saidAloud().some((text) => /^Copied/.test(text)), null, {
        timeout: 5_000,
      });
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(request);
      // What the button shows is in what a screen reader calls it (WCAG 2.5.3, label in name).
      const [shown, name] = await button.evaluate((b) => [
        b.textContent,
        b.getAttribute("aria-label"),
      ]);
      expect(name).toContain(shown);
      // A moment later the page no longer says "Copied", ready for the next.
      await page.waitForFunction(() => !saidAloud().some((text) => /^Copied/.test(text)), null, {
        timeout: 5_000,
      });
      expect(await button.textContent()).toBe("Copy");
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("says plainly when the browser refuses to copy, and selects the request to copy by hand", async () => {
    const context = await browser.newContext();
    await context.addInitScript(defineSaidAloud);
    await context.addInitScript(() => {
      navigator.clipboard.writeText = () =>
        Promise.reject(new DOMException("Write permission denied.", "NotAllowedError"));
    });
    try {
      const { page, problems } = await open(`${sirv.url}/`, context);
      await expectCopyByHand(page);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("offers the copy button where the page has no clipboard (plain http elsewhere than localhost), selecting the request", async () => {
    const context = await browser.newContext();
    await context.addInitScript(defineSaidAloud);
    // As in an insecure context, where the browser does not define navigator.clipboard at all.
    await context.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, "clipboard", { get: () => undefined });
    });
    try {
      const { page, problems } = await open(`${sirv.url}/`, context);
      expect(await page.evaluate(() => navigator.clipboard)).toBeUndefined();
      await expectCopyByHand(page);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("has an outline of headings that says what the page is, each section under its own heading", async () => {
    const { page } = await open(`${sirv.url}/`);
    const outline = await page.$$eval("h1, h2, h3, h4, h5, h6", (headings) =>
      headings
        .filter((h) => h.checkVisibility())
        .map((h) => `${h.tagName.toLowerCase()} ${h.textContent?.replace(/\s+/g, " ").trim()}`),
    );
    const endpoints = await page.$$eval(".endpoints li", (items) => items.length);
    expect(endpoints).toBeGreaterThanOrEqual(6);
    const [first] = dataset.contracts;
    expect(outline.filter((h) => !h.startsWith("h4 "))).toEqual([
      "h1 velodata",
      "h2 Contracts",
      "h2 Stations map",
      expect.stringMatching(new RegExp(`^h3 ${first?.commercial_name} \\d+ stations?$`)),
      "h2 API",
      "h3 Getting a key",
      "h3 Endpoints",
      "h2 Downloads no key",
      "h2 GBFS feeds no key",
      "h2 API reference",
    ]);
    // Every endpoint is a step below "Endpoints", right after it.
    const endpointsAt = outline.indexOf("h3 Endpoints");
    expect(
      outline.slice(endpointsAt + 1, endpointsAt + 1 + endpoints).every((h) => h.startsWith("h4 ")),
    ).toBe(true);
    expect(outline.filter((h) => h.startsWith("h4 "))).toHaveLength(endpoints);
    // Each section is named by its first heading, and every other heading in it is below that one.
    const sections = await page.$$eval("main section", (all) =>
      all.map((section) => {
        const headings = Array.from(section.querySelectorAll("h2, h3, h4, h5, h6"));
        const level = (h: Element | undefined) => Number(h?.tagName.slice(1));
        return {
          id: section.id,
          namedByFirst: headings[0]?.id === section.getAttribute("aria-labelledby"),
          below: headings.slice(1).every((h) => level(h) > level(headings[0])),
        };
      }),
    );
    expect(sections.length).toBeGreaterThanOrEqual(6);
    expect(sections.filter((s) => !s.namedByFirst || !s.below)).toEqual([]);
  });

  it("draws one mark per station of the chosen contract, coloured from the live feed", async () => {
    const { page } = await open(`${sirv.url}/`);
    await page.selectOption("#contract-choice", "toulouse");
    await page.waitForSelector(".contract-map:not([hidden]) .mark.ok");
    const visible = page.locator(".contract-map:not([hidden]) .mark");
    const api = (await (
      await server.get("/vls/v3/stations?contract=toulouse")
    ).json()) as unknown[];
    expect(await visible.count()).toBe(api.length);
    expect(await page.locator(".contract-map:not([hidden])").count()).toBe(1);
    expect(await page.locator(".contract-map:not([hidden]) .mark.unknown").count()).toBe(0);
    expect(await page.locator(".contract-map:not([hidden]) .mark.closed").count()).toBeGreaterThan(
      0,
    );
  });

  it("frames a contract's stations, a station a city away shown at the map's edge", async () => {
    const { page } = await open(`${sirv.url}/`);
    // The fixtures' Toulouse has one station 158 km from the others (the build warns of it).
    await page.selectOption("#contract-choice", "toulouse");
    await page.waitForSelector(".contract-map:not([hidden]) .mark.ok");
    const marks = page.locator(".contract-map:not([hidden]) .mark");
    const far = page.locator(".contract-map:not([hidden]) .mark.far");
    expect(await far.count()).toBe(1);
    expect(await far.getAttribute("aria-label")).toMatch(/1033, .* \(158 km away, off this map/);
    const xs = (await marks.evaluateAll((all) =>
      all
        .filter((mark) => !mark.classList.contains("far"))
        .map((mark) => Number(mark.getAttribute("cx"))),
    )) as number[];
    const ys = (await marks.evaluateAll((all) =>
      all
        .filter((mark) => !mark.classList.contains("far"))
        .map((mark) => Number(mark.getAttribute("cy"))),
    )) as number[];
    // The others fill the map (640 wide, at most 520 high), not a corner of it.
    const span = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
    expect(span).toBeGreaterThan(400);
  });

  it("lists the chosen contract's stations in a table with the API's live numbers", async () => {
    const { page } = await open(`${sirv.url}/`);
    await page.selectOption("#contract-choice", "toulouse");
    // The table is in a closed <details>: drawn, filled in from the live feed, not visible.
    await page.waitForFunction(() => {
      const cells = document.querySelectorAll('.contract-map:not([hidden]) td[data-live="bikes"]');
      return cells.length > 0 && Array.from(cells).every((cell) => cell.textContent !== "–");
    });
    // A page of rows at a time: opened, and "Show N more" pressed from the keyboard until all are.
    await page.click(".contract-map:not([hidden]) summary");
    const more = page.locator(".contract-map:not([hidden]) button.more");
    while (await more.isVisible()) {
      await more.focus();
      await page.keyboard.press("Enter");
    }
    expect(await page.textContent(".contract-map:not([hidden]) .rows-shown")).toMatch(
      /^\d+ stations, all shown\.$/,
    );
    const rows = await page.$$eval(".contract-map:not([hidden]) tbody tr", (trs) =>
      trs.map((tr) =>
        Array.from(tr.querySelectorAll("td"))
          .slice(0, 4)
          .map((td) => td.textContent),
      ),
    );
    const api = (await (await server.get("/vls/v3/stations?contract=toulouse")).json()) as {
      number: number;
      name: string;
      totalStands: { capacity: number; availabilities: { bikes: number } };
    }[];
    const expected = api.map((s) => [
      String(s.number),
      s.name,
      String(s.totalStands.capacity),
      String(s.totalStands.availabilities.bikes),
    ]);
    const byNumber = (a: (string | null)[], b: (string | null)[]) => Number(a[0]) - Number(b[0]);
    expect(rows.sort(byNumber)).toEqual(expected.sort(byNumber));
  });

  it("shows each contract's totals equal to the API's, of the stations a rider can use", async () => {
    const { page } = await open(`${sirv.url}/`);
    await page.waitForSelector("#live-data[data-at]");
    for (const contract of dataset.contracts) {
      const stations = (await (
        await server.get(`/vls/v3/stations?contract=${contract.name}`)
      ).json()) as {
        status: string;
        connected: boolean;
        totalStands: { availabilities: { bikes: number; stands: number } };
      }[];
      // A closed or disconnected station's bikes and stands are not available (GBFS is_renting).
      const usable = stations.filter((s) => s.status === "OPEN" && s.connected);
      const bikes = usable.reduce((sum, s) => sum + s.totalStands.availabilities.bikes, 0);
      const stands = usable.reduce((sum, s) => sum + s.totalStands.availabilities.stands, 0);
      const cell = (what: string) =>
        page.textContent(`td[data-live="${what}"][data-contract="${contract.name}"]`);
      expect([contract.name, await cell("bikes"), await cell("docks")]).toEqual([
        contract.name,
        String(bikes),
        String(stands),
      ]);
    }
    // Which stations count is said beside the totals, which a reader reconciles with the feed.
    expect(await page.textContent("#live-note")).toContain(
      "a closed or disconnected station's left out",
    );
  });

  it("dates the live data by its oldest feed on screen, so a stale contract is not hidden by a fresh one", async () => {
    const { page } = await open(`${sirv.url}/`);
    await page.waitForSelector("#live-data[data-at]");
    // Every contract's row is on screen: the time shown is that of the oldest of their feeds.
    const updated: number[] = [];
    for (const contract of dataset.contracts) {
      const response = await fetch(
        `${sirv.url}/contracts/${contract.name}/gbfs/v3/station_status.json`,
      );
      updated.push(Date.parse(((await response.json()) as { last_updated: string }).last_updated));
    }
    expect(new Set(updated).size).toBeGreaterThan(1); // the fixtures' feeds are of different times
    const shown = await page.getAttribute("#live-data", "data-at");
    expect(shown).toBe(new Date(Math.min(...updated)).toISOString());
  });

  it("reads a station from the keyboard: a mark takes focus and its text is shown", async () => {
    const { page } = await open(`${sirv.url}/`);
    await page.waitForSelector("#live-data[data-at]");
    await page.waitForSelector(".contract-map:not([hidden]) .mark");
    const mark = page.locator(".contract-map:not([hidden]) .mark").first();
    await mark.focus();
    const info = await page.textContent(".contract-map:not([hidden]) .map-info");
    expect(info).toMatch(/^Station \d+, .+ bikes, \d+ free stands/);
    expect(await page.evaluate(() => document.activeElement?.classList.contains("mark"))).toBe(
      true,
    );
    // One tab stop for the whole map; the arrow keys (by position), Home and End move between its marks.
    const map = ".contract-map:not([hidden]) .mark";
    expect(await page.locator(`${map}[tabindex="0"]`).count()).toBe(1);
    const focused = () =>
      page.evaluate(() => {
        const marks = Array.from(document.querySelectorAll(".contract-map:not([hidden]) .mark"));
        return marks.indexOf(document.activeElement as Element);
      });
    // An arrow leads to the nearest mark that way: within 45° of it if any, else anywhere ahead.
    const points = (await page.$$eval(map, (marks) =>
      marks.map((mark) => [Number(mark.getAttribute("cx")), Number(mark.getAttribute("cy"))]),
    )) as [number, number][];
    const toward = (from: number, [ux, uy]: [number, number]): number => {
      const [x, y] = points[from] as [number, number];
      const ahead = points
        .map(([px, py], index) => ({ index, dx: px - x, dy: py - y }))
        .filter(({ index, dx, dy }) => index !== from && dx * ux + dy * uy > 0)
        .map(({ index, dx, dy }) => ({
          index,
          inCone: Math.abs(dx * uy - dy * ux) <= dx * ux + dy * uy,
          distance: Math.hypot(dx, dy),
        }))
        .sort((a, b) => Number(b.inCone) - Number(a.inCone) || a.distance - b.distance);
      return ahead[0]?.index ?? from;
    };
    let at = 0;
    for (const [key, direction] of [
      ["ArrowRight", [1, 0]],
      ["ArrowDown", [0, 1]],
      ["ArrowLeft", [-1, 0]],
      ["ArrowUp", [0, -1]],
      ["ArrowRight", [1, 0]],
    ] as const) {
      const expected = toward(at, direction as unknown as [number, number]);
      await page.keyboard.press(key);
      expect([key, await focused()]).toEqual([key, expected]);
      at = expected;
    }
    const said = await page.locator(map).nth(at).getAttribute("aria-label");
    expect(await page.textContent(".contract-map:not([hidden]) .map-info")).toBe(said);
    // At the map's edge, an arrow leads nowhere further.
    const rightmost = points.reduce(
      (best, [x], index) => (x > (points[best] as [number, number])[0] ? index : best),
      0,
    );
    // Focused otherwise than by a key (a click), it is the map's one tab stop all the same.
    await page.locator(map).nth(rightmost).focus();
    expect(
      await page.$$eval(`${map}[tabindex="0"]`, (marks) =>
        marks.map((mark) => (mark as SVGElement).dataset.station),
      ),
    ).toEqual([await page.locator(map).nth(rightmost).getAttribute("data-station")]);
    await page.keyboard.press("ArrowRight");
    expect(await focused()).toBe(rightmost);
    await page.keyboard.press("End");
    const count = await page.locator(map).count();
    expect(await focused()).toBe(count - 1);
    await page.keyboard.press("Home");
    expect(await focused()).toBe(0);
    await page.keyboard.press("Tab");
    expect(await focused()).toBe(-1);
  });

  it("marks the stations not reported for 15 minutes before their feed, and says how many and since when", async () => {
    const { page } = await open(`${sirv.url}/`);
    await page.selectOption("#contract-choice", "toulouse");
    await page.waitForSelector(".contract-map:not([hidden]) .mark.ok");
    // The fixtures' Toulouse reports over a day: its feed is dated by its newest report.
    const api = (await (await server.get("/vls/v3/stations?contract=toulouse")).json()) as {
      number: number;
      status: string;
      connected: boolean;
      lastUpdate: string;
    }[];
    const reportedAt = (s: (typeof api)[number]) => Date.parse(s.lastUpdate);
    const newest = Math.max(...api.map(reportedAt));
    const expected = api
      .filter((s) => s.status === "OPEN" && s.connected && newest - reportedAt(s) >= 15 * 60_000)
      .map((s) => String(s.number))
      .sort();
    expect(expected.length).toBeGreaterThan(0);
    const map = ".contract-map:not([hidden])";
    const stale = await page.$$eval(`${map} .mark.stale`, (marks) =>
      marks.map((mark) => (mark as SVGElement).dataset.station ?? ""),
    );
    expect(stale.sort()).toEqual(expected);
    expect(await page.textContent(`${map} .stale-note`)).toBe(
      expected.length === 1
        ? `1 of ${api.length} stations has not reported for 15 minutes or more: the numbers shown for it are its last known.`
        : `${expected.length} of ${api.length} stations have not reported for 15 minutes or more: the numbers shown for them are their last known.`,
    );
    // Each mark says its last report, a stale one how long it has been silent.
    const station = api.find((s) => s.number === Number(expected[0])) as (typeof api)[number];
    const label = await page.getAttribute(
      `${map} .mark[data-station="${station.number}"]`,
      "aria-label",
    );
    const silent = newest - reportedAt(station);
    const said =
      silent < 120 * 60_000
        ? `${Math.floor(silent / 60_000)} min`
        : silent < 48 * 3_600_000
          ? `${Math.floor(silent / 3_600_000)} h`
          : `${Math.floor(silent / 86_400_000)} days`;
    expect(label).toContain(
      `no report for ${said}; last report ${readerTime(reportedAt(station))}`,
    );
  });

  it("leads from a contract's name in the contracts table to its map", async () => {
    const { page } = await open(`${sirv.url}/`);
    await page.waitForSelector(".contract-map:not([hidden]) .mark");
    await page.click('#contracts a[data-map="toulouse"]');
    await page.waitForSelector('.contract-map[data-contract="toulouse"]:not([hidden]) .mark');
    expect(await page.$$eval(".contract-map:not([hidden])", (maps) => maps.length)).toBe(1);
    expect(await page.inputValue("#contract-choice")).toBe("toulouse");
    expect(new URL(page.url()).hash).toBe("#map");
  });

  it("keeps a clicked station said while the pointer passes over others", async () => {
    const { page } = await open(`${sirv.url}/`);
    await page.waitForSelector(".contract-map:not([hidden]) .mark.ok");
    const marks = page.locator(".contract-map:not([hidden]) .mark");
    const info = ".contract-map:not([hidden]) .map-info";
    await marks.nth(0).click({ force: true });
    const chosen = await marks.nth(0).getAttribute("aria-label");
    expect(await page.textContent(info)).toBe(chosen);
    await marks.nth(1).hover({ force: true });
    expect(await page.textContent(info)).toBe(chosen);
    expect(await marks.nth(0).getAttribute("class")).toContain("chosen");
    // A ring over it, painted after every mark: neighbours cannot hide it.
    const ring = await page.$eval(".contract-map:not([hidden]) svg.map", (svg) => {
      const last = svg.lastElementChild as SVGCircleElement;
      const mark = svg.querySelector(".mark.chosen") as SVGCircleElement;
      return {
        ring: last.classList.contains("ring"),
        at: [last.getAttribute("cx"), last.getAttribute("cy")],
        mark: [mark.getAttribute("cx"), mark.getAttribute("cy")],
      };
    });
    expect(ring.ring).toBe(true);
    expect(ring.at).toEqual(ring.mark);
  });

  it("finds a name written with a typographic apostrophe as with a typed one, and dims the others on the map", async () => {
    const { page } = await open(`${sirv.url}/`);
    await page.waitForSelector(".contract-map:not([hidden]) tbody tr", { state: "attached" });
    await page.click(".contract-map:not([hidden]) summary");
    const find = page.locator(".contract-map:not([hidden]) .find-station");
    const found = () =>
      page.$$eval(".contract-map:not([hidden]) tbody tr td:nth-child(2)", (cells) =>
        cells.map((cell) => cell.textContent ?? ""),
      );
    await find.fill("stephen\u2019s green south");
    expect(await found()).toEqual(["ST. STEPHEN'S GREEN SOUTH"]);
    // On the map, the station found stands out: every other mark is dimmed, until the search is cleared.
    const dimmed = () =>
      page.$$eval(".contract-map:not([hidden]) .mark", (marks) =>
        marks
          .filter((mark) => !mark.classList.contains("unfound"))
          .map((mark) => (mark as SVGElement).dataset.station),
      );
    expect(await dimmed()).toEqual(["37"]);
    await find.fill("");
    expect((await dimmed()).length).toBe(
      await page.locator(".contract-map:not([hidden]) .mark").count(),
    );
  });

  it("leads from a station's row to its mark, and says what to search for when none is found", async () => {
    const { page } = await open(`${sirv.url}/`);
    const map = ".contract-map:not([hidden])";
    await page.selectOption("#contract-choice", "toulouse");
    await page.waitForSelector(`${map} tbody tr`, { state: "attached" });
    await page.click(`${map} summary`);
    // A row far down the table: its station's name is a button to its mark.
    const row = page.locator(`${map} tbody tr`).nth(60);
    const station = await row.getAttribute("data-station");
    await row.locator("button.to-mark").click();
    const focused = await page.evaluate(() => {
      const mark = document.activeElement as SVGCircleElement;
      const ring = mark.ownerSVGElement?.querySelector(".ring");
      return {
        station: mark.dataset.station,
        label: mark.getAttribute("aria-label"),
        ring: [ring?.getAttribute("cx"), ring?.getAttribute("cy")],
        at: [mark.getAttribute("cx"), mark.getAttribute("cy")],
        box: [mark.getBoundingClientRect().top, mark.getBoundingClientRect().bottom],
        room: window.innerHeight,
      };
    });
    expect(focused.station).toBe(station);
    expect(await page.textContent(`${map} .map-info`)).toBe(focused.label);
    expect(focused.ring).toEqual(focused.at);
    // The map is brought into view, the mark within the window.
    expect(focused.box[0]).toBeGreaterThanOrEqual(0);
    expect(focused.box[1]).toBeLessThanOrEqual(focused.room);
    // Chosen, as a tap would: the pointer then passing over another mark (the map scrolled under
    // it) leaves the station said.
    const other = page.locator(`${map} .mark:not([data-station="${station}"])`).first();
    await other.hover({ force: true });
    expect(await page.textContent(`${map} .map-info`)).toBe(focused.label);
    // Escape goes back to the row's button, at the row the map was left from.
    await page.keyboard.press("Escape");
    expect(await page.evaluate(() => document.activeElement?.closest("tr")?.dataset.station)).toBe(
      station,
    );
    // Come back to the map otherwise (not from a row), Escape has no row to go back to.
    await page.locator(`${map} .mark`).nth(3).focus();
    await page.keyboard.press("Escape");
    expect(await page.evaluate(() => document.activeElement?.classList.contains("mark"))).toBe(
      true,
    );
    // From a row's mark, the arrow keys go on over the map.
    await page.locator(`${map} tbody tr`).nth(60).locator("button.to-mark").focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("ArrowLeft");
    const next = await page.evaluate(() => (document.activeElement as SVGElement).dataset.station);
    expect(next).toBeDefined();
    expect(next).not.toBe(station);
    // While a search dims the stations it did not find, the keys go over those it found.
    await page.fill(`${map} .find-station`, "jean");
    const found = await page.$$eval(`${map} tbody tr`, (rows) =>
      rows.map((row) => (row as HTMLElement).dataset.station),
    );
    expect(found.length).toBeGreaterThan(2);
    await page.locator(`${map} tbody tr button.to-mark`).first().click();
    for (const key of ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown", "End", "Home"]) {
      await page.keyboard.press(key);
      expect(found).toContain(
        await page.evaluate(() => (document.activeElement as SVGElement).dataset.station),
      );
    }
    // A search that finds nothing says what can be searched for.
    await page.fill(`${map} .find-station`, "zzqx");
    expect(await page.isVisible(`${map} table`)).toBe(false);
    expect(await page.textContent(`${map} .rows-shown`)).toBe(
      "No station found for “zzqx”: search for a station's number, or words of its name (in any case, with or without accents).",
    );
    await page.fill(`${map} .find-station`, "");
    expect(await page.isVisible(`${map} table`)).toBe(true);
  });

  it("brings the station's text under the map into view too, on a window shorter than both", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 640 } });
    try {
      const { page } = await open(`${sirv.url}/`, context);
      const map = ".contract-map:not([hidden])";
      await page.selectOption("#contract-choice", "toulouse");
      await page.waitForSelector(`${map} tbody tr`, { state: "attached" });
      await page.click(`${map} summary`);
      const rows = page.locator(`${map} tbody tr`);
      for (const at of [0, 30, 60]) {
        await rows.nth(at).locator("button.to-mark").click();
        const seen = await page.evaluate((selector) => {
          const mark = (document.activeElement as Element).getBoundingClientRect();
          const info = (
            document.querySelector(`${selector} .map-info`) as Element
          ).getBoundingClientRect();
          const svg = (
            document.querySelector(`${selector} svg.map`) as Element
          ).getBoundingClientRect();
          return { mark: [mark.top, mark.bottom], info: info.bottom, svg: svg.height };
        }, map);
        // The map alone is taller than this window's room for it and its text.
        expect(seen.svg).toBeGreaterThan(500);
        // Within a pixel: the page scrolls by whole pixels, the boxes sit between them.
        expect(seen.info).toBeLessThanOrEqual(641);
        expect(seen.mark[0]).toBeGreaterThanOrEqual(-1);
        expect(seen.mark[1]).toBeLessThanOrEqual(641);
      }
    } finally {
      await context.close();
    }
  });

  it("on a phone, a tap near a mark (outside its few pixels) reads the nearest station", async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
    });
    try {
      const page = await context.newPage();
      await page.goto(`${sirv.url}/`, { waitUntil: "networkidle" });
      await page.selectOption("#contract-choice", "toulouse");
      await page.waitForSelector(".contract-map:not([hidden]) .mark.ok");
      await page.locator(".contract-map:not([hidden]) svg.map").scrollIntoViewIfNeeded();
      // A point 12 px from a mark's centre, off every mark's circle, and 20 px at least from any
      // other: the one mark in reach (where marks crowd, the browser's own touch adjustment may
      // move a tap onto a neighbour's circle).
      const target = await page.evaluate(() => {
        const marks = Array.from(
          document.querySelectorAll(".contract-map:not([hidden]) .mark"),
        ) as SVGCircleElement[];
        const centres = marks.map((mark) => {
          const box = mark.getBoundingClientRect();
          return { x: box.x + box.width / 2, y: box.y + box.height / 2, radius: box.width / 2 };
        });
        for (let at = 0; at < marks.length; at++) {
          const { x, y, radius } = centres[at] as { x: number; y: number; radius: number };
          for (const [dx, dy] of [
            [12, 0],
            [-12, 0],
            [0, 12],
            [0, -12],
          ] as const) {
            const [px, py] = [x + dx, y + dy];
            const distances = centres.map((c) => Math.hypot(c.x - px, c.y - py));
            const others = distances.filter((_, index) => index !== at);
            const clear = Math.min(...others) >= 20;
            const onAMark = document.elementFromPoint(px, py)?.classList.contains("mark");
            if (!onAMark && clear && radius < 12)
              return { x: px, y: py, label: marks[at]?.getAttribute("aria-label"), at };
          }
        }
        return null;
      });
      expect(target).not.toBeNull();
      const { x, y, label, at } = target as { x: number; y: number; label: string; at: number };
      await page.touchscreen.tap(x, y);
      const map = ".contract-map:not([hidden])";
      expect(await page.textContent(`${map} .map-info`)).toBe(label);
      const chosen = await page.$$eval(`${map} .mark`, (marks) =>
        marks.flatMap((mark, index) => (mark.classList.contains("chosen") ? [index] : [])),
      );
      expect(chosen).toEqual([at]);
      // Another mark reached from the keyboard is the one said and shown: the chosen one lets go.
      await page
        .locator(`${map} .mark`)
        .nth(at === 0 ? 1 : 0)
        .focus();
      expect(await page.locator(`${map} .mark.chosen`).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it("without JavaScript, shows no control that would do nothing, and says what needs the script", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${sirv.url}/`);
      expect(await page.isVisible("#contract-choice")).toBe(false);
      expect(await page.isVisible(".legend")).toBe(false);
      expect(await page.isVisible("#live-data")).toBe(false); // the live data's word, said once read
      expect(await page.textContent("#map")).toContain("which this browser does not run");
      expect(await page.isVisible("#downloads a")).toBe(true);
    } finally {
      await context.close();
    }
    // With it, they are all there.
    const { page } = await open(`${sirv.url}/`);
    expect(await page.isVisible("#contract-choice")).toBe(true);
    expect(await page.isVisible(".legend")).toBe(true);
    expect(await page.isVisible("#live-data")).toBe(true);
  });

  it("browses the OpenAPI document with the bundled Swagger UI, offline, the data's sections open", async () => {
    const { page, problems } = await open(`${sirv.url}/docs/`);
    await page.waitForSelector(".swagger-ui .info .title");
    expect(await page.textContent(".swagger-ui .info .title")).toContain("velodata");
    const document = (await (await fetch(`${sirv.url}/openapi.json`)).json()) as {
      paths: Record<string, { get: { tags: string[] } }>;
      tags: { name: string }[];
    };
    // The document's sections in its order: the data's open, the portal's own files and the
    // preflights folded (listed for tools; a reader comes for the data).
    const folded = ["portal", "CORS preflight"];
    const sections = () =>
      page.$$eval(".swagger-ui .opblock-tag-section", (all) =>
        all.map((section) => [
          (section.querySelector(".opblock-tag") as HTMLElement).dataset.tag,
          section.classList.contains("is-open"),
        ]),
      );
    expect(await sections()).toEqual(
      document.tags.map(({ name }) => [name, !folded.includes(name)]),
    );
    // Folding leaves the address and the history as they were: the new tab's blank page and this
    // one, so that one step back leaves the reference.
    expect(page.url()).toBe(`${sirv.url}/docs/`);
    expect(await page.evaluate(() => history.length)).toBe(2);
    const paths = Object.values(document.paths);
    const shown = paths.filter((item) => !item.get.tags.some((tag) => folded.includes(tag)));
    expect(await page.locator(".swagger-ui .opblock-get").count()).toBe(shown.length);
    expect(await page.locator(".swagger-ui .opblock-options").count()).toBe(0);
    // Unfolded, they list every operation: a GET per path, and its CORS preflight.
    for (const tag of folded) await page.click(`.swagger-ui .opblock-tag[data-tag="${tag}"]`);
    expect(await page.locator(".swagger-ui .opblock-get").count()).toBe(paths.length);
    expect(await page.locator(".swagger-ui .opblock-options").count()).toBe(paths.length);
    // A link to a preflight opens its folded section, and stays in the address bar.
    const linked = await open(`${sirv.url}/docs/#/CORS%20preflight`);
    await linked.page.waitForSelector(".swagger-ui .opblock-options");
    expect(await linked.page.locator(".swagger-ui .opblock-options").count()).toBe(paths.length);
    expect(linked.page.url()).toBe(`${sirv.url}/docs/#/CORS%20preflight`);
    expect(linked.problems).toEqual([]);
    // A link no section's name reads from (not percent-encoding) still folds them (Swagger UI's own
    // deep linking logs it as malformed, nothing else does).
    const garbled = await open(`${sirv.url}/docs/#/%E0%A4%A`);
    await garbled.page.waitForSelector(".swagger-ui .opblock-get");
    expect(await garbled.page.locator(".swagger-ui .opblock-options").count()).toBe(0);
    expect(garbled.problems).toHaveLength(1);
    expect(garbled.problems[0]).toMatch(/^console: URIError: URI malformed/);
    // Built without --base-url: "Try it out" goes to the host the page is read from first.
    const servers = await page.$$eval(".swagger-ui .servers select option", (options) =>
      options.map((option) => (option as HTMLOptionElement).value),
    );
    expect(servers[0]).toBe(sirv.url);
    expect(servers).toContain("http://127.0.0.1:8080");
    expect(problems).toEqual([]);
  });

  it("meets WCAG 2.1 AA as axe-core checks it: the portal, and the reference with an operation open", async () => {
    const portal = await open(`${sirv.url}/`);
    // With its live data drawn: the map, the table and the totals.
    await portal.page.waitForSelector("#live-data[data-at]");
    await portal.page.waitForSelector(".contract-map:not([hidden]) .mark.ok");
    expect(await wcagViolations(portal.page)).toEqual([]);
    // The table of stations opened: its search box, its rows and its "Show N more" button.
    await portal.page.click(".contract-map:not([hidden]) summary");
    await portal.page.waitForSelector(".contract-map:not([hidden]) button.more", {
      state: "visible",
    });
    expect(await wcagViolations(portal.page)).toEqual([]);
    const docs = await open(`${sirv.url}/docs/`);
    await docs.page.waitForSelector(".swagger-ui .opblock-get");
    expect(await wcagViolations(docs.page)).toEqual([]);
    // An operation opened (its parameters and responses), tried out and executed.
    await docs.page.click(".swagger-ui .opblock-get .opblock-summary-control");
    await docs.page.waitForSelector(".swagger-ui .opblock.is-open .parameters-container");
    expect(await wcagViolations(docs.page)).toEqual([]);
    // One with parameters (their "(path)" labels) and an example body (highlighted, scrollable).
    await docs.page
      .locator(".swagger-ui .opblock-get .opblock-summary-control", {
        hasText: "/vls/v3/stations/{contract}/{number}",
      })
      .click();
    await docs.page.waitForSelector(".swagger-ui .opblock.is-open .parameter__in");
    await docs.page.waitForSelector(".swagger-ui .opblock.is-open .microlight");
    expect(await wcagViolations(docs.page)).toEqual([]);
    expect([...portal.problems, ...docs.problems]).toEqual([]);
    // Executed on this plain static host, which has no answer for it: the 404 is shown.
    await docs.page.click(".swagger-ui .opblock.is-open .try-out__btn");
    await docs.page.click(".swagger-ui .opblock.is-open .execute");
    await docs.page.waitForSelector(".swagger-ui .opblock.is-open .live-responses-table");
    expect(await wcagViolations(docs.page)).toEqual([]);
    // axe-core's three runs over Swagger UI's page take ~25 s on two loaded cores: room for that.
  }, 90_000);

  it("browses the reference from /docs without its slash too, as a plain static host answers it", async () => {
    const { page, problems } = await open(`${sirv.url}/docs`);
    await page.waitForSelector(".swagger-ui .info .title");
    expect(await page.locator(".swagger-ui .opblock-get").count()).toBeGreaterThan(20);
    expect(problems).toEqual([]);
  });

  it("on a phone, fits the reference to the screen's width with its operations open", async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 667 } });
    try {
      const { page, problems } = await open(`${sirv.url}/docs/`, context);
      await page.waitForSelector(".swagger-ui .opblock-get");
      // The first operation of each open section (each open one re-renders at every click: all of
      // them take a minute), and the one with the longest header examples, the bundle's.
      const sections = page.locator(".swagger-ui .opblock-tag-section.is-open");
      const count = await sections.count();
      for (let at = 0; at < count; at++)
        await sections.nth(at).locator(".opblock-get .opblock-summary-control").first().click();
      await page
        .locator(".swagger-ui .opblock-get .opblock-summary-control", { hasText: ".zip" })
        .click();
      await page.waitForFunction(
        (wanted) =>
          document.querySelectorAll(".swagger-ui .opblock.is-open .responses-table").length ===
          wanted,
        count + 1,
      );
      // The way back to the portal is a link set apart, not the browser's default text.
      expect(
        await page.$eval("body > header a", (link) => getComputedStyle(link).fontFamily),
      ).toContain("system-ui");
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(375);
      // Each header an answer gives, its name whole on one line (not broken in a squeezed column),
      // and each section's description as wide as the screen allows, not a word wide.
      const nameLines = await page.$$eval(".swagger-ui table.headers td:first-child", (cells) =>
        cells.map((cell) => {
          const text = document.createRange();
          text.selectNodeContents(cell);
          return text.getClientRects().length;
        }),
      );
      expect(nameLines.length).toBeGreaterThan(0);
      expect(new Set(nameLines)).toEqual(new Set([1]));
      const descriptions = await page.$$eval(".swagger-ui .opblock-tag small", (all) =>
        all.map((small) => small.getBoundingClientRect().width),
      );
      expect(Math.min(...descriptions)).toBeGreaterThan(250);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("on a phone, wraps a service's name of one long word rather than widening the page and the reference", async () => {
    const out = join(await tempDir(), "out");
    const serviceName = "Fahrradverleihsystemdatenbereitstellungsplattform";
    await writePortalTree(out, { portal: { serviceName, language: "de" } });
    const named = await startSirv(out);
    const context = await browser.newContext({ viewport: { width: 375, height: 667 } });
    try {
      const portal = await open(`${named.url}/`, context);
      expect(await portal.page.textContent("h1")).toBe(serviceName);
      expect(await portal.page.evaluate(() => document.documentElement.scrollWidth)).toBe(375);
      const reference = await open(`${named.url}/docs/`, context);
      await reference.page.waitForSelector(".swagger-ui .info .title");
      expect(await reference.page.textContent(".swagger-ui .info .title")).toContain(serviceName);
      expect(await reference.page.evaluate(() => document.documentElement.scrollWidth)).toBe(375);
      expect([...portal.problems, ...reference.problems]).toEqual([]);
    } finally {
      await context.close();
      named.stop();
    }
  });

  it("lets a page of another origin read an answer's ETag and revalidate with it", async () => {
    // A document of the static host without the portal's policy (which allows its own origin only).
    const { page } = await open(`${sirv.url}/openapi.json`);
    const target = `${server.base.replace(/\/$/, "")}/vls/v3/stations?contract=dublin&apiKey=${server.key}`;
    const seen = await page.evaluate(async (url) => {
      const first = await fetch(url, { cache: "no-store" });
      const etag = first.headers.get("etag");
      // A header of its own: the browser asks the server first (a CORS preflight).
      const again = await fetch(url, {
        cache: "no-store",
        headers: { "If-None-Match": etag ?? "" },
      });
      return { etag, status: again.status };
    }, target);
    expect(new URL(target).origin).not.toBe(sirv.url);
    expect(seen.etag).toMatch(/^"[^"]+"$/);
    expect(seen.status).toBe(304);
  });

  it("renders from `velodata serve` too, its links and requests answering 200", async () => {
    const { page, problems } = await open(server.base);
    expect(problems).toEqual([]);
    const statuses = await linkStatuses(page);
    expect([...statuses].filter(([, status]) => status !== 200)).toEqual([]);
    for (const request of await requestsShown(page)) {
      const response = await fetch(request.replace(KEY_PLACEHOLDER, server.key));
      expect([request, response.status]).toEqual([request, 200]);
    }
  });
});

describe.runIf(!HAS_CHROMIUM && MUST_HAVE_CHROMIUM)("portal in a browser, in CI", () => {
  it("has chromium to run in", () => {
    expect.fail(`no chromium at ${CHROMIUM}: .ci/run must install it`);
  });
});
