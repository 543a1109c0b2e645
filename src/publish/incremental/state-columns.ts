// Each station's state in a release, in columns: the minute part of a cron refresh's state holds
// 100,000 of them, read and written every minute. Typed arrays are written and read as their bytes
// (cache-columns.ts), and leave no objects to the collector.
import type { Availabilities } from "../../model/api.js";
import type { LiveState } from "../../source/dataset.js";

export interface StateColumns {
  /** Per station: -1 when it has no state, else 2 when open + 1 when connected. */
  status: Int8Array;
  /** The distinct `lastUpdate` texts; `time`, per station, a position in them (-1: null). */
  times: string[];
  time: Int32Array;
  /**
   * Per station, six counts (AVAILABILITIES order; a count is at most INT32_MAX, as checked when
   * read); in `overflow` the first is -1 when none.
   */
  main: Int32Array;
  overflow: Int32Array;
}

const AVAILABILITIES: readonly (keyof Availabilities)[] = [
  "bikes",
  "stands",
  "mechanicalBikes",
  "electricalBikes",
  "electricalInternalBatteryBikes",
  "electricalRemovableBatteryBikes",
];
const WIDTH = AVAILABILITIES.length;

/** Columns for `count` stations, none with a state yet. */
export function emptyColumns(count: number): StateColumns {
  return {
    status: new Int8Array(count).fill(-1),
    times: [],
    time: new Int32Array(count).fill(-1),
    main: new Int32Array(count * WIDTH),
    overflow: new Int32Array(count * WIDTH).fill(-1),
  };
}

export const copyColumns = (columns: StateColumns): StateColumns => ({
  status: columns.status.slice(),
  times: columns.times.slice(),
  time: columns.time.slice(),
  main: columns.main.slice(),
  overflow: columns.overflow.slice(),
});

/** Columns of the right lengths for `count` stations (as read from a file: anything may be there). */
export function wellFormedColumns(columns: StateColumns | undefined, count: number): boolean {
  if (!columns) return false;
  const { status, times, time, main, overflow } = columns;
  return (
    status instanceof Int8Array &&
    Array.isArray(times) &&
    time instanceof Int32Array &&
    main instanceof Int32Array &&
    overflow instanceof Int32Array &&
    status.length === count &&
    time.length === count &&
    main.length === count * WIDTH &&
    overflow.length === count * WIDTH
  );
}

/** Writes station `index`'s state (its time added to `times` once, found through `timeAt`). */
export function setState(
  columns: StateColumns,
  index: number,
  live: LiveState | undefined,
  timeAt: Map<string, number>,
): void {
  if (!live) {
    columns.status[index] = -1;
    columns.time[index] = -1;
    columns.main.fill(0, index * WIDTH, (index + 1) * WIDTH);
    columns.overflow.fill(-1, index * WIDTH, (index + 1) * WIDTH);
    return;
  }
  columns.status[index] = (live.status === "OPEN" ? 2 : 0) + (live.connected ? 1 : 0);
  let time = -1;
  if (live.lastUpdate !== null) {
    time = timeAt.get(live.lastUpdate) ?? -1;
    if (time < 0) {
      time = columns.times.push(live.lastUpdate) - 1;
      timeAt.set(live.lastUpdate, time);
    }
  }
  columns.time[index] = time;
  for (let at = 0; at < WIDTH; at++) {
    const key = AVAILABILITIES[at] as keyof Availabilities;
    columns.main[index * WIDTH + at] = live.main[key];
    columns.overflow[index * WIDTH + at] = live.overflow ? live.overflow[key] : -1;
  }
}

/** The position of each of the columns' times, for setState. */
export const timesIndex = (columns: StateColumns): Map<string, number> =>
  new Map(columns.times.map((time, at) => [time, at]));

/** Station `index` holds `live` (no state for undefined). */
export function holdsState(
  columns: StateColumns,
  index: number,
  live: LiveState | undefined,
): boolean {
  const status = columns.status[index] ?? -1;
  if (!live || status < 0) return !live && status < 0;
  if (status !== (live.status === "OPEN" ? 2 : 0) + (live.connected ? 1 : 0)) return false;
  if (lastUpdateAt(columns, index) !== live.lastUpdate) return false;
  const hasOverflow = (columns.overflow[index * WIDTH] ?? -1) >= 0;
  if (hasOverflow !== Boolean(live.overflow)) return false;
  for (let at = 0; at < WIDTH; at++) {
    const key = AVAILABILITIES[at] as keyof Availabilities;
    if (columns.main[index * WIDTH + at] !== live.main[key]) return false;
    if (live.overflow && columns.overflow[index * WIDTH + at] !== live.overflow[key]) return false;
  }
  return true;
}

/** Station `index`'s `lastUpdate` (null when it has none or no state). */
export function lastUpdateAt(columns: StateColumns, index: number): string | null {
  const time = columns.time[index] ?? -1;
  return time < 0 ? null : (columns.times[time] ?? null);
}

/** Station `index`'s state as setState wrote it (undefined when it has none): holdsState's inverse. */
export function stateAt(columns: StateColumns, index: number): LiveState | undefined {
  const status = columns.status[index] ?? -1;
  if (status < 0) return undefined;
  const availabilities = (column: Int32Array): Availabilities => {
    const values = {} as Availabilities;
    AVAILABILITIES.forEach((key, at) => {
      values[key] = column[index * WIDTH + at] as number;
    });
    return values;
  };
  return {
    status: status >= 2 ? "OPEN" : "CLOSED",
    connected: status % 2 === 1,
    lastUpdate: lastUpdateAt(columns, index),
    main: availabilities(columns.main),
    overflow:
      (columns.overflow[index * WIDTH] ?? -1) >= 0 ? availabilities(columns.overflow) : null,
  };
}
