/// <reference lib="dom" />
// The portal's times in a real browser: each said in the reader's own zone, with its offset; and
// the footer's word on the live data, true whether the feeds are fresh or have stalled.
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, HAS_CHROMIUM, type StaticHost, startSirv } from "../../../browser.js";
import { tempDir } from "../../../helpers.js";
import { writePortalTree } from "./portal-tree.js";
import { READER_ZONE, readerTime } from "./reader-zone.js";

// The static data's time: a winter's, when Paris is an hour ahead of UTC (two in summer).
const DATA_UPDATED_AT = new Date("2025-02-08T16:44:06.500Z");
// States known a second after Bicloo's newest report, a few after VéloCité's: the other
// contracts' stations last reported months or years before, their feeds have stalled. One of
// Bicloo's stations, open, last reported 25 minutes before: silent, its contract not stalled.
const SOME_STALLED = new Date("2026-11-20T08:15:05Z");
const SILENT_BICLOO = { contract: "nantes", number: 1, lastUpdate: "2026-11-20T07:50:05Z" };
// 45 minutes after every contract's newest report: all have stalled.
const ALL_STALLED = new Date("2026-11-20T09:00:00Z");
const CONTRACTS = ["dublin", "toulouse", "lyon", "nantes", "besancon"];

let browser: Browser;
// The fixtures' tree with each feed dated by its own newest report, and the two stalled ones.
let fresh: StaticHost;
let someStalled: StaticHost;
let allStalled: StaticHost;

/**
 * The portal as a reader in `timeZone` sees it, its live data read; `redated` gives contracts'
 * station_status another `last_updated`, as a feed written on from reports that stopped coming.
 */
async function openIn(
  timeZone: string,
  host = fresh,
  redated: Record<string, string> = {},
): Promise<Page> {
  const context = await browser.newContext({ timezoneId: timeZone });
  for (const [contract, lastUpdated] of Object.entries(redated)) {
    await context.route(`**/contracts/${contract}/gbfs/v3/station_status.json`, async (route) => {
      const response = await route.fetch();
      const feed = { ...((await response.json()) as StatusFeed), last_updated: lastUpdated };
      await route.fulfill({ response, json: feed });
    });
  }
  const page = await context.newPage();
  await page.goto(`${host.url}/`, { waitUntil: "networkidle" });
  await page.waitForSelector("#live-data[data-at]");
  return page;
}

interface StatusFeed {
  last_updated: string;
  data: {
    stations: {
      station_id: string;
      last_reported: string;
      is_installed: boolean;
      is_renting: boolean;
    }[];
  };
}

const statusOf = async (host: StaticHost, contract: string): Promise<StatusFeed> =>
  (await (
    await fetch(`${host.url}/contracts/${contract}/gbfs/v3/station_status.json`)
  ).json()) as StatusFeed;

/** Open stations not reported for 15 minutes before their feed's time, as the maps mark them. */
async function staleStations(host: StaticHost, contracts: string[]): Promise<number> {
  let stale = 0;
  for (const contract of contracts) {
    const feed = await statusOf(host, contract);
    const at = Date.parse(feed.last_updated);
    stale += feed.data.stations.filter(
      (s) => s.is_installed && s.is_renting && at - Date.parse(s.last_reported) >= 15 * 60_000,
    ).length;
  }
  return stale;
}

describe.skipIf(!HAS_CHROMIUM)("portal times in a browser", () => {
  beforeAll(async () => {
    const trees = await tempDir();
    const host = async (name: string, options: Parameters<typeof writePortalTree>[1] = {}) => {
      const out = join(trees, name);
      await writePortalTree(out, { dataUpdatedAt: DATA_UPDATED_AT, ...options });
      return startSirv(out);
    };
    fresh = await host("fresh");
    someStalled = await host("some-stalled", {
      statesAt: SOME_STALLED,
      reports: [SILENT_BICLOO],
    });
    allStalled = await host("all-stalled", { statesAt: ALL_STALLED });
    browser = await chromium.launch({ executablePath: CHROMIUM });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    for (const host of [fresh, someStalled, allStalled]) host?.stop();
  });

  it("says the static data's time, the live data's and each station's last report in the reader's zone", async () => {
    const page = await openIn(READER_ZONE);
    expect(await page.getAttribute("footer time", "datetime")).toBe(DATA_UPDATED_AT.toISOString());
    expect(await page.textContent("footer time")).toBe("2025-02-08 17:44 UTC+1");
    const liveAt = Date.parse((await page.getAttribute("#live-data", "data-at")) ?? "");
    expect(await page.textContent("#live-data")).toContain(
      `Live data as of ${readerTime(liveAt)}.`,
    );
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
    for (const station of (await statusOf(fresh, "lyon")).data.stations) {
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
    await page.goto(`${fresh.url}/`);
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
      const liveAt = Date.parse((await page.getAttribute("#live-data", "data-at")) ?? "");
      expect([zone, await page.textContent("#live-data")]).toEqual([
        zone,
        expect.stringContaining(`Live data as of ${readerTime(liveAt, zone)}.`),
      ]);
    }
  });

  it("dates fresh live data by its oldest feed on screen, and counts the stations gone silent", async () => {
    const page = await openIn(READER_ZONE);
    const feeds = await Promise.all(CONTRACTS.map((contract) => statusOf(fresh, contract)));
    const oldest = Math.min(...feeds.map((feed) => Date.parse(feed.last_updated)));
    const stale = await staleStations(fresh, CONTRACTS);
    expect(stale).toBe(1); // the fixtures' Toulouse reports over a day
    expect(await page.textContent("#live-data")).toBe(
      `Live data as of ${readerTime(oldest)}. 1 of 413 stations has not reported for 15 minutes or more: the numbers shown for it are its last known.`,
    );
  });

  it("says first which contracts have stalled, since when, and only then the others' time", async () => {
    const page = await openIn(READER_ZONE, someStalled);
    expect(await staleStations(someStalled, ["nantes", "besancon"])).toBe(1);
    // Dublin's newest report is from February 2025; every feed is of the states' time.
    expect(await page.textContent("#live-data")).toBe(
      "Live data: no station of dublinbikes, Vélô, and Vélo'v has reported since 2025-02-08 17:51 UTC+1 (feeds of 2026-11-20 09:15 UTC+1): the numbers shown for them are their stations' last known. " +
        "The other contracts' live data as of 2026-11-20 09:15 UTC+1. 1 of their 9 stations has not reported for 15 minutes or more: the numbers shown for it are its last known.",
    );
  });

  it("names the one contract stalled, and says feeds of different times as such", async () => {
    // Dublin's newest report redated an hour on: its feed alone has stalled.
    const one = await openIn(READER_ZONE, fresh, { dublin: "2025-02-08T17:51:27Z" });
    expect(await one.textContent("#live-data")).toBe(
      "Live data: no station of dublinbikes has reported since 2025-02-08 17:51 UTC+1 (feed of 2025-02-08 18:51 UTC+1): the numbers shown for it are its stations' last known. " +
        "The other contracts' live data as of 2020-12-16 10:53 UTC+1. 1 of their 299 stations has not reported for 15 minutes or more: the numbers shown for it are its last known.",
    );
    // Lyon's too: the oldest of the two feeds is said, and that the other is later.
    const two = await openIn(READER_ZONE, fresh, {
      dublin: "2025-02-08T17:51:27Z",
      lyon: "2022-04-25T14:03:29Z",
    });
    expect(await two.textContent("#live-data")).toBe(
      "Live data: no station of dublinbikes and Vélo'v has reported since 2025-02-08 17:51 UTC+1 (feeds of 2022-04-25 16:03 UTC+2 or later): the numbers shown for them are their stations' last known. " +
        "The other contracts' live data as of 2020-12-16 10:53 UTC+1. 1 of their 296 stations has not reported for 15 minutes or more: the numbers shown for it are its last known.",
    );
  });

  it("says when the live data has stalled everywhere, never that it is fresh", async () => {
    const page = await openIn(READER_ZONE, allStalled);
    // Bicloo's newest report, 08:15:05 UTC, is the newest of all: 45 minutes before the feeds.
    expect(await page.textContent("#live-data")).toBe(
      "Live data: no station has reported since 2026-11-20 09:15 UTC+1 (feeds of 2026-11-20 10:00 UTC+1): the numbers shown are the stations' last known.",
    );
    // As the map's note says of its own stations.
    expect(await page.textContent(".contract-map:not([hidden]) .stale-note")).toMatch(
      /^114 of 114 stations have not reported for 15 minutes or more/,
    );
  });
});
