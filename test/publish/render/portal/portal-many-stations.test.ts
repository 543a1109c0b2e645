/// <reference lib="dom" />
// The portal's table of stations in a real browser, on one contract of 30,000 stations: the page
// holds a bounded number of rows, and finding a station still searches all of them.
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../../../src/commands/build.js";
import { memoryOutput } from "../../../../src/commands/output.js";
import { synth } from "../../../../src/commands/synth.js";
import { CHROMIUM, HAS_CHROMIUM, type StaticHost, startSirv } from "../../../browser.js";
import { tempDir } from "../../../helpers.js";

const STATIONS = 30_000;
// Far below the network, far above a page of rows: the bound says "paged", not a page size.
const MOST_ROWS = 1_000;
const TABLE = ".contract-map:not([hidden])";

interface InformationFeed {
  data: { stations: { station_id: string; name: { text: string }[] }[] };
}
interface StatusFeed {
  data: { stations: { station_id: string; num_vehicles_available: number }[] };
}

let browser: Browser;
let sirv: StaticHost;
let information: InformationFeed;
let status: StatusFeed;

/** The portal with its table of stations drawn and its live numbers read. */
async function openTable(): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${sirv.url}/`, { waitUntil: "domcontentloaded" });
  await page.waitForSelector("#live-data[data-at]", { timeout: 60_000 });
  await page.waitForSelector(`${TABLE} tbody tr`, { state: "attached", timeout: 60_000 });
  await page.click(`${TABLE} summary`);
  return page;
}

const rowCount = (page: Page): Promise<number> => page.locator(`${TABLE} tbody tr`).count();

describe.skipIf(!HAS_CHROMIUM)("portal table of stations, one contract of 30,000", () => {
  beforeAll(async () => {
    const dir = await tempDir();
    const source = join(dir, "source");
    const out = join(dir, "out");
    await mkdir(source);
    await synth({
      stations: STATIONS,
      contracts: 1,
      minutes: 0,
      out: source,
      output: memoryOutput(),
    });
    await build({ source, out, output: memoryOutput() });
    const { contracts } = JSON.parse(await readFile(join(source, "contracts.json"), "utf8")) as {
      contracts: { name: string }[];
    };
    const feed = (name: string) =>
      readFile(join(out, "contracts", contracts[0]?.name ?? "", "gbfs", "v3", name), "utf8");
    information = JSON.parse(await feed("station_information.json")) as InformationFeed;
    status = JSON.parse(await feed("station_status.json")) as StatusFeed;
    sirv = await startSirv(out);
    browser = await chromium.launch({ executablePath: CHROMIUM });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    sirv?.stop();
  });

  it("holds a bounded number of rows, and shows more from a button", async () => {
    const page = await openTable();
    expect(information.data.stations).toHaveLength(STATIONS);
    const first = await rowCount(page);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(MOST_ROWS);
    await page.getByRole("button", { name: /^Show \d+ more/ }).click();
    const more = await rowCount(page);
    expect(more).toBeGreaterThan(first);
    expect(more).toBeLessThanOrEqual(first + MOST_ROWS);
    await page.close();
  }, 60_000);

  it("finds a station near the end of the list by its number and by its name, with its live numbers", async () => {
    const page = await openTable();
    const last = information.data.stations.at(-2);
    const live = status.data.stations.find((s) => s.station_id === last?.station_id);
    const find = page.getByRole("searchbox", { name: /find a station/i });
    await find.fill(last?.station_id ?? "");
    const row = page.locator(`${TABLE} tbody tr[data-station="${last?.station_id}"]`);
    await expect.poll(() => row.count()).toBe(1);
    expect(await rowCount(page)).toBeLessThanOrEqual(MOST_ROWS);
    expect(await row.locator('[data-live="bikes"]').textContent()).toBe(
      String(live?.num_vehicles_available),
    );
    // By its name, any case: the rows found are those whose name holds it, the station among them.
    const name = last?.name[0]?.text ?? "";
    await find.fill(name.toUpperCase());
    await expect.poll(() => row.count()).toBe(1);
    const names = await page.$$eval(`${TABLE} tbody tr td:nth-child(2)`, (cells) =>
      cells.map((cell) => cell.textContent ?? ""),
    );
    expect(names.length).toBeLessThanOrEqual(MOST_ROWS);
    expect(names.every((shown) => shown.toLowerCase().includes(name.toLowerCase()))).toBe(true);
    await page.close();
  }, 60_000);
});
