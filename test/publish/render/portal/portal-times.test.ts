/// <reference lib="dom" />
// The portal's times in a real browser: each said in the reader's own zone, with its offset.
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, HAS_CHROMIUM, type StaticHost, startSirv } from "../../../browser.js";
import { tempDir } from "../../../helpers.js";
import { writePortalTree } from "./portal-tree.js";
import { READER_ZONE, readerTime } from "./reader-zone.js";

// The static data's time: a winter's, when Paris is an hour ahead of UTC (two in summer).
const DATA_UPDATED_AT = new Date("2025-02-08T16:44:06.500Z");

let browser: Browser;
let sirv: StaticHost;

/** The portal as a reader in `timeZone` sees it, its live data read. */
async function openIn(timeZone: string): Promise<Page> {
  const context = await browser.newContext({ timezoneId: timeZone });
  const page = await context.newPage();
  await page.goto(`${sirv.url}/`, { waitUntil: "networkidle" });
  await page.waitForSelector("#refreshed[data-at]");
  return page;
}

interface StatusFeed {
  data: { stations: { station_id: string; last_reported: string }[] };
}

describe.skipIf(!HAS_CHROMIUM)("portal times in a browser", () => {
  beforeAll(async () => {
    const out = join(await tempDir(), "out");
    await writePortalTree(out, { dataUpdatedAt: DATA_UPDATED_AT });
    sirv = await startSirv(out);
    browser = await chromium.launch({ executablePath: CHROMIUM });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    sirv?.stop();
  });

  it("says the static data's time, the live data's and each station's last report in the reader's zone", async () => {
    const page = await openIn(READER_ZONE);
    expect(await page.getAttribute("footer time", "datetime")).toBe(DATA_UPDATED_AT.toISOString());
    expect(await page.textContent("footer time")).toBe("2025-02-08 17:44 UTC+1");
    const liveAt = Date.parse((await page.getAttribute("#refreshed", "data-at")) ?? "");
    expect(await page.textContent("#refreshed")).toBe(readerTime(liveAt));
    // Lyon's stations last reported in April, in Paris's summer time: an offset of their own.
    await page.selectOption("#contract-choice", "lyon");
    const map = '.contract-map[data-contract="lyon"]';
    await page.waitForFunction(
      (selector) =>
        Array.from(document.querySelectorAll(`${selector} .mark`)).every((mark) =>
          mark.getAttribute("aria-label")?.includes("last report"),
        ),
      map,
    );
    const feed = (await (
      await fetch(`${sirv.url}/contracts/lyon/gbfs/v3/station_status.json`)
    ).json()) as StatusFeed;
    for (const station of feed.data.stations) {
      const said = readerTime(Date.parse(station.last_reported));
      expect(said).toMatch(/ UTC\+2$/);
      const label = await page.getAttribute(
        `${map} .mark[data-station="${station.station_id}"]`,
        "aria-label",
      );
      expect(label).toContain(`; last report ${said}`);
    }
  });

  it("without the script, says the static data's time in UTC, and says it is UTC", async () => {
    const context = await browser.newContext({ timezoneId: READER_ZONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${sirv.url}/`);
    expect(await page.textContent("footer time")).toBe("2025-02-08 16:44:06 UTC");
  });

  it("names the offset of any reader's zone: behind UTC, off the hour, and UTC itself", async () => {
    const zones = [
      ["America/New_York", "2025-02-08 11:44 UTC-5"],
      ["Asia/Kolkata", "2025-02-08 22:14 UTC+5:30"],
      ["UTC", "2025-02-08 16:44 UTC"],
    ];
    for (const [zone, said] of zones) {
      const page = await openIn(zone as string);
      expect([zone, await page.textContent("footer time")]).toEqual([zone, said]);
      const liveAt = Date.parse((await page.getAttribute("#refreshed", "data-at")) ?? "");
      expect([zone, await page.textContent("#refreshed")]).toEqual([
        zone,
        readerTime(liveAt, zone),
      ]);
    }
  });
});
