// How fresh the station data is: what /status counts, from a server's states and from a cron
// refresh's columns alike.
import { describe, expect, it } from "vitest";
import type { Station } from "../../src/model/station.js";
import { emptyColumns, setState, timesIndex } from "../../src/publish/incremental/state-columns.js";
import {
  feedHealth,
  feedHealthOfColumns,
  feedQuestion,
  feedStatus,
  newestStillReported,
  newestStillReportedOfMap,
  staleStations,
} from "../../src/serve/feed-health.js";
import { type LiveState, stationKey } from "../../src/source/dataset.js";

const station = (number: number): Station => ({
  contract: "lyon",
  number,
  name: `Station ${number}`,
  address: "1 rue de la République",
  latitude: 45.76,
  longitude: 4.83,
  banking: false,
  bonus: false,
  overflow: false,
  capacity: 20,
  overflowCapacity: null,
});
const reported = (lastUpdate: string | null): LiveState => ({
  status: "OPEN",
  connected: true,
  lastUpdate,
  main: {
    bikes: 4,
    stands: 16,
    mechanicalBikes: 3,
    electricalBikes: 1,
    electricalInternalBatteryBikes: 1,
    electricalRemovableBatteryBikes: 0,
  },
  overflow: null,
});

const stations = [1, 2, 3, 4, 5, 6].map(station);
// Out of time order, one time twice (two strings, as parsed from a file), one never reported;
// stations 5 and 6 left out of the file.
const lastUpdates = ["2026-01-05T08:00:00Z", "2026-01-05T07:40:00Z", null, "2026-01-05T08:00:00Z"];
const states = new Map(
  lastUpdates.map((lastUpdate, at) => [
    stationKey("lyon", at + 1),
    reported(lastUpdate === null ? null : lastUpdate.slice(0, -1).concat("Z")),
  ]),
);
const NOW = new Date("2026-01-05T08:05:00Z");
const LIMITS = { staleMinutes: 15, maxStaleShare: 0.5 };

describe("feed health", () => {
  it("counts the stations left out, and every report's time in order", () => {
    const health = feedHealth(stations, states);
    expect(health.stations).toBe(6);
    expect(health.missing).toBe(2);
    expect([...health.updates]).toEqual(
      ["2026-01-05T07:40:00Z", "2026-01-05T08:00:00Z", "2026-01-05T08:00:00Z"].map(Date.parse),
    );
  });

  it("says stale every station not reported within the limit: missing, never reported, old", () => {
    const status = feedStatus(feedHealth(stations, states), LIMITS, NOW);
    expect(status).toMatchObject({
      newestLastUpdate: "2026-01-05T08:00:00.000Z",
      newestAgeSeconds: 300,
      missingStations: 2,
      staleStations: 4, // 5 and 6 missing, 3 never reported, 2 twenty-five minutes old
      staleShare: 0.667,
      ok: false,
    });
  });

  it("says the stations without a state apart from those not reported, and asks of both", () => {
    const status = feedStatus(feedHealth(stations, states), LIMITS, NOW);
    expect(staleStations(status, 6)).toBe(
      "2 of 6 stations not reported for 15 minutes or more and 2 without a state in the last read",
    );
    expect(feedQuestion(status)).toBe("is the feed stalled, or leaving stations out?");
    // 5 and 6 reported now: only the late ones are stale.
    const fresh = reported("2026-01-05T08:04:00Z");
    const all = new Map(states);
    for (const number of [5, 6]) all.set(stationKey("lyon", number), fresh);
    const reportedAll = feedStatus(feedHealth(stations, all), LIMITS, NOW);
    expect(staleStations(reportedAll, 6)).toBe(
      "2 of 6 stations not reported for 15 minutes or more",
    );
    expect(feedQuestion(reportedAll)).toBe("is the feed stalled?");
    // Only 5 and 6 in the file: the 4 others are stale for being left out, said so alone.
    const onlyLeftOut = new Map([...all].filter(([, state]) => state === fresh));
    const leftOut = feedStatus(feedHealth(stations, onlyLeftOut), LIMITS, NOW);
    expect(staleStations(leftOut, 6)).toBe("4 of 6 stations without a state in the last read");
    expect(feedQuestion(leftOut)).toBe("is the feed leaving stations out?");
  });

  it("is the same from a cron refresh's columns", () => {
    const columns = emptyColumns(stations.length);
    const timeAt = timesIndex(columns);
    stations.forEach((one, index) => {
      setState(columns, index, states.get(stationKey(one.contract, one.number)), timeAt);
    });
    expect(feedHealthOfColumns(columns)).toEqual(feedHealth(stations, states));
  });

  it("finds the newest report published after a time among the stations still reported", () => {
    const columns = emptyColumns(stations.length);
    const timeAt = timesIndex(columns);
    stations.forEach((one, index) => {
      setState(columns, index, states.get(stationKey(one.contract, one.number)), timeAt);
    });
    const at = (time: string) => Date.parse(time);
    const all = () => true;
    expect(newestStillReported(columns, at("2026-01-05T07:00:00Z"), all)).toBe(
      at("2026-01-05T08:00:00Z"),
    );
    // Stations 1 and 4 (positions 0 and 3) reported 08:00; with both gone, 2's 07:40 is newest.
    const without =
      (...gone: number[]) =>
      (index: number) =>
        !gone.includes(index);
    expect(newestStillReported(columns, at("2026-01-05T07:00:00Z"), without(0))).toBe(
      at("2026-01-05T08:00:00Z"),
    );
    expect(newestStillReported(columns, at("2026-01-05T07:00:00Z"), without(0, 3))).toBe(
      at("2026-01-05T07:40:00Z"),
    );
    expect(newestStillReported(columns, at("2026-01-05T07:40:00Z"), without(0, 3))).toBeUndefined();
    expect(newestStillReported(columns, at("2026-01-05T08:00:00Z"), all)).toBeUndefined();

    const reportedNow = (...gone: number[]) =>
      new Map([...states].filter(([key]) => !gone.some((n) => key === stationKey("lyon", n))));
    const health = feedHealth(stations, states);
    for (const known of [health, undefined]) {
      expect(
        newestStillReportedOfMap(states, known, at("2026-01-05T07:00:00Z"), reportedNow(1)),
      ).toBe(at("2026-01-05T08:00:00Z"));
      expect(
        newestStillReportedOfMap(states, known, at("2026-01-05T07:00:00Z"), reportedNow(1, 4)),
      ).toBe(at("2026-01-05T07:40:00Z"));
      expect(
        newestStillReportedOfMap(states, known, at("2026-01-05T08:00:00Z"), reportedNow()),
      ).toBeUndefined();
    }
  });
});
