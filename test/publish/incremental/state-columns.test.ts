// Each station's state kept in columns by the cron refresh: what is written is what is held.
import { describe, expect, it } from "vitest";
import {
  copyColumns,
  emptyColumns,
  holdsState,
  lastUpdateAt,
  type StateColumns,
  setState,
  timesIndex,
  wellFormedColumns,
} from "../../../src/publish/incremental/state-columns.js";
import type { LiveState } from "../../../src/source/dataset.js";
import { readRefreshCache, writeRefreshCache } from "../../../src/tree/refresh-cache.js";
import { tempDir } from "../../helpers.js";

const counts = (bikes: number) => ({
  bikes,
  stands: 10 - bikes,
  mechanicalBikes: bikes - 1,
  electricalBikes: 1,
  electricalInternalBatteryBikes: 1,
  electricalRemovableBatteryBikes: 0,
});
const open: LiveState = {
  status: "OPEN",
  connected: true,
  lastUpdate: "2026-01-05T07:57:57Z",
  main: counts(4),
  overflow: null,
};
const withOverflow: LiveState = { ...open, overflow: counts(2) };
const closed: LiveState = { ...open, status: "CLOSED", connected: false, lastUpdate: null };

describe("state columns", () => {
  it("hold what was written, and nothing else, at each station", () => {
    const columns = emptyColumns(4);
    const timeAt = timesIndex(columns);
    const states = [open, withOverflow, closed, undefined];
    states.forEach((live, index) => {
      setState(columns, index, live, timeAt);
    });
    const variants: (LiveState | undefined)[] = [
      ...states,
      { ...open, connected: false },
      { ...open, lastUpdate: "2026-01-05T07:57:58Z" },
      { ...open, main: counts(5) },
      { ...withOverflow, overflow: counts(3) },
    ];
    states.forEach((live, index) => {
      for (const other of variants) expect(holdsState(columns, index, other)).toBe(other === live);
    });
    expect(lastUpdateAt(columns, 1)).toBe(open.lastUpdate);
    expect(lastUpdateAt(columns, 2)).toBeNull();
    // One time text, kept once.
    expect(columns.times).toEqual([open.lastUpdate]);
  });

  it("survive the cache file, are copied apart, and refuse other lengths and kinds", async () => {
    const columns = emptyColumns(2);
    setState(columns, 0, withOverflow, timesIndex(columns));
    const folder = await tempDir();
    writeRefreshCache(folder, { columns });
    const read = (readRefreshCache(folder)?.value as { columns: StateColumns } | undefined)
      ?.columns as StateColumns;
    expect(wellFormedColumns(read, 2)).toBe(true);
    expect(holdsState(read, 0, withOverflow)).toBe(true);
    expect(wellFormedColumns(read, 3)).toBe(false);
    expect(wellFormedColumns({ ...read, main: new Int32Array(0) }, 2)).toBe(false);
    expect(wellFormedColumns({ ...read, time: new Float64Array(2) as never }, 2)).toBe(false);
    const copy = copyColumns(columns);
    setState(copy, 0, undefined, timesIndex(copy));
    expect(holdsState(copy, 0, undefined)).toBe(true);
    expect(holdsState(columns, 0, withOverflow)).toBe(true);
  });
});
