/// <reference lib="dom" />
// The portal's live numbers in a real browser, on a network of many contracts: only the feeds of
// what is on screen are read, and none while the page is hidden.
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../../src/commands/build.js";
import { memoryOutput } from "../../../../src/commands/output.js";
import { synth } from "../../../../src/commands/synth.js";
import { CHROMIUM, HAS_CHROMIUM, type StaticHost, startSirv } from "../../../browser.js";
import { tempDir } from "../../../helpers.js";

const CONTRACTS = 40;
// The page script's margin around the screen within which a row counts as on screen.
const MARGIN = 200;

let browser: Browser;
let sirv: StaticHost;
let out: string;

/** The contract of each station_status feed the page asks for, in order. */
function statusReads(page: Page): string[] {
  const contracts: string[] = [];
  page.on("request", (request) => {
    const found = /\/contracts\/([^/]+)\/gbfs\/v3\/station_status\.json$/.exec(
      new URL(request.url()).pathname,
    );
    if (found) contracts.push(decodeURIComponent(found[1] as string));
  });
  return contracts;
}

/** The contracts whose totals row is within the margin around the screen. */
const rowsOnScreen = (page: Page): Promise<string[]> =>
  page.$$eval(
    "#contracts tbody td[data-live='bikes']",
    (cells, margin) =>
      cells
        .filter((cell) => {
          const box = cell.getBoundingClientRect();
          return box.bottom >= -margin && box.top <= window.innerHeight + margin;
        })
        .map((cell) => (cell as HTMLElement).dataset.contract as string),
    MARGIN,
  );

/** Every request the page made before this one has been seen (the browser sends them in order). */
const barrier = (page: Page): Promise<unknown> =>
  page.evaluate(() => fetch("./", { cache: "no-store" }).then((r) => r.text()));

/**
 * The portal on a clock the test moves, once its first feeds are read: the page, the feeds it
 * asks for (in order) and how many it first read.
 */
async function openOnFakeClock(): Promise<{ page: Page; reads: string[]; first: number }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.clock.install();
  const reads = statusReads(page);
  await page.goto(`${sirv.url}/`, { waitUntil: "networkidle" });
  await page.waitForSelector("#live-data[data-at]");
  await barrier(page);
  const first = reads.length;
  expect(first).toBeGreaterThan(0);
  return { page, reads, first };
}

describe.skipIf(!HAS_CHROMIUM)("portal live numbers, many contracts", () => {
  beforeAll(async () => {
    const dir = await tempDir();
    const source = join(dir, "source");
    out = join(dir, "out");
    await mkdir(source);
    await synth({ stations: 1_200, contracts: CONTRACTS, out: source, output: memoryOutput() });
    await build({ source, out, output: memoryOutput() });
    sirv = await startSirv(out);
    browser = await chromium.launch({ executablePath: CHROMIUM });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    sirv?.stop();
  });

  it("reads the feeds of the rows on screen and the shown map's, then a row's once scrolled to", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const reads = statusReads(page);
    await page.goto(`${sirv.url}/`, { waitUntil: "networkidle" });
    await page.waitForSelector("#live-data[data-at]");
    const shownMap = await page.$eval(
      ".contract-map:not([hidden])",
      (map) => (map as HTMLElement).dataset.contract as string,
    );
    const onScreen = await rowsOnScreen(page);
    const all = await page.$$eval("#contracts tbody td[data-live='bikes']", (cells) =>
      cells.map((cell) => (cell as HTMLElement).dataset.contract as string),
    );
    expect(all).toHaveLength(CONTRACTS);
    expect(onScreen.length).toBeGreaterThan(0);
    expect(onScreen.length).toBeLessThan(CONTRACTS / 2);
    await barrier(page);
    expect(new Set(reads)).toEqual(new Set([...onScreen, shownMap]));
    // Each read once, not once per trigger (load, the observer, the chosen map).
    expect(reads).toHaveLength(new Set(reads).size);

    const last = all.at(-1) as string;
    expect(reads).not.toContain(last);
    await page.locator(`td[data-live="bikes"][data-contract="${last}"]`).scrollIntoViewIfNeeded();
    await page.waitForFunction(
      (contract) =>
        document.querySelector(`td[data-live="docks"][data-contract="${contract}"]`)
          ?.textContent !== "–",
      last,
    );
    expect(reads).toContain(last);
    const feed = (await (
      await fetch(`${sirv.url}/contracts/${last}/gbfs/v3/station_status.json`)
    ).json()) as { data: { stations: { num_vehicles_available: number }[] } };
    const bikes = feed.data.stations.reduce((sum, s) => sum + s.num_vehicles_available, 0);
    expect(await page.textContent(`td[data-live="bikes"][data-contract="${last}"]`)).toBe(
      String(bikes),
    );
  });

  it("colours a chosen map whose row is off screen from its own feed", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(`${sirv.url}/`, { waitUntil: "networkidle" });
    const last = await page.$eval(
      "#contract-choice option:last-child",
      (o) => (o as HTMLOptionElement).value,
    );
    await page.selectOption("#contract-choice", last);
    await page.waitForSelector(
      ".contract-map:not([hidden]) .mark:not(.unknown):not([class='mark'])",
      {
        timeout: 10_000,
      },
    );
    expect(await page.locator(".contract-map:not([hidden]) .mark.unknown").count()).toBe(0);
    expect(await page.locator(".contract-map:not([hidden]) .mark").count()).toBeGreaterThan(0);
  });

  it("reads nothing while the page is hidden, and what is on screen once it is shown", async () => {
    const { page, reads, first } = await openOnFakeClock();
    const setHidden = (hidden: boolean) =>
      page.evaluate((value) => {
        Object.defineProperty(document, "hidden", { configurable: true, get: () => value });
        document.dispatchEvent(new Event("visibilitychange"));
      }, hidden);

    await setHidden(true);
    // Past the feeds' ttl (60 s): the next round is due, and must not read while hidden.
    await page.clock.fastForward(61_000);
    await barrier(page);
    expect(reads).toHaveLength(first);

    await setHidden(false);
    await barrier(page);
    expect(reads).toHaveLength(2 * first);
    expect(new Set(reads.slice(first))).toEqual(new Set(reads.slice(0, first)));
  });

  it("reads again after the feeds' own ttl, from the first round on", async () => {
    // Feeds that say 30 s (serve --refresh 30), where the page's guess before reading any is 60 s.
    const feeds = await readdir(join(out, "contracts"));
    for (const contract of feeds) {
      const path = join(out, "contracts", contract, "gbfs/v3/station_status.json");
      await writeFile(path, (await readFile(path, "utf8")).replace('"ttl":60', '"ttl":30'));
      // sirv would send the precompressed siblings, which still say 60.
      await Promise.all([rm(`${path}.gz`), rm(`${path}.br`)]);
    }
    const { page, reads, first } = await openOnFakeClock();
    await page.clock.fastForward(31_000);
    await barrier(page);
    expect(reads).toHaveLength(2 * first);
  });
});
