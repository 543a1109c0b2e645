// How fresh the station data is, as opposed to the release: a feed that stalls keeps publishing
// every minute with old `lastUpdate`s, and /status must say so.
import type { Station } from "../model/station.js";
import { counted } from "../plural.js";
import type { StateColumns } from "../publish/incremental/state-columns.js";
import type { LiveState } from "../source/dataset.js";

export interface FeedHealth {
  stations: number;
  /**
   * Stations with no state in the last states read (published with their last state, marked
   * disconnected, or CLOSED when they never reported).
   */
  missing: number;
  /** Every reported `lastUpdate`, in milliseconds, ascending: staleness is counted at /status time. */
  updates: Float64Array;
}

export interface FeedLimits {
  /** A station not reported for this long is stale. */
  staleMinutes: number;
  /** /status turns `ok` false when more than this share of stations is stale or missing. */
  maxStaleShare: number;
}

const DEFAULT_FEED_LIMITS: FeedLimits = { staleMinutes: 15, maxStaleShare: 0.25 };

/** The limits from the command line's `--stale-minutes` and `--max-stale` (a percent). */
export const feedLimitsOf = (options: {
  staleMinutes?: number;
  maxStale?: number;
}): FeedLimits => ({
  staleMinutes: options.staleMinutes ?? DEFAULT_FEED_LIMITS.staleMinutes,
  maxStaleShare:
    options.maxStale === undefined ? DEFAULT_FEED_LIMITS.maxStaleShare : options.maxStale / 100,
});

/**
 * "N of M stations not reported for K minutes or more", of a feedStatus, every command's words. The
 * stations without a state in the last read, stale too (nothing was heard of them), are counted
 * apart, as /status's missingStations: a station the feed left out, or sent in error, may have
 * reported a minute ago, and calling it unreported would send the operator after a stalled feed.
 */
export function staleStations(feed: ReturnType<typeof feedStatus>, stations: number): string {
  const late = `not reported for ${counted(feed.staleMinutes, "minute")} or more`;
  const without = feed.missingStations;
  const silent = feed.staleStations - without;
  const of = `of ${counted(stations, "station")}`;
  if (without === 0) return `${silent} ${of} ${late}`;
  if (silent === 0) return `${without} ${of} ${WITHOUT_STATE}`;
  return `${silent} ${of} ${late} and ${without} ${WITHOUT_STATE}`;
}

const WITHOUT_STATE = "without a state in the last read";

/** What a stale share makes of the feed, asked of the operator: late reports, stations left out. */
export function feedQuestion(feed: ReturnType<typeof feedStatus>): string {
  if (feed.missingStations === 0) return "is the feed stalled?";
  return feed.staleStations > feed.missingStations
    ? "is the feed stalled, or leaving stations out?"
    : "is the feed leaving stations out?";
}

/**
 * `states` holds states of `stations` only, as every Dataset's does (a state of a station the
 * static data does not hold is an error of the states file): the stations without one are
 * counted, not looked up. A server runs this after every refresh, on its serving thread: looking
 * each of a million stations up by key took ~1.6 s, ~0.3 s this way.
 */
export function feedHealth(
  stations: readonly Station[],
  states: ReadonlyMap<string, LiveState>,
): FeedHealth {
  const updates = new Float64Array(states.size);
  let count = 0;
  const parse = timeParser();
  for (const state of states.values())
    if (state.lastUpdate !== null) updates[count++] = parse(state.lastUpdate);
  return {
    stations: stations.length,
    missing: stations.length - states.size,
    updates: updates.subarray(0, count).sort(),
  };
}

/** Date.parse, each distinct time once: a minute's states share a few thousand times. */
function timeParser(): (time: string) => number {
  const parsed = new Map<string, number>();
  return (time) => {
    let ms = parsed.get(time);
    if (ms === undefined) {
      ms = Date.parse(time);
      parsed.set(time, ms);
    }
    return ms;
  };
}

/**
 * feedHealth of the states a cron refresh keeps in columns (each distinct time parsed once);
 * `kept`: the stations the states file left out that keep their last state there, counted as
 * missing, as feedHealth counts them.
 */
export function feedHealthOfColumns(
  columns: StateColumns,
  kept: ReadonlySet<number> = new Set(),
): FeedHealth {
  const times = columns.times.map((time) => Date.parse(time));
  const updates = new Float64Array(columns.status.length);
  let count = 0;
  let missing = 0;
  columns.status.forEach((status, index) => {
    if (status < 0 || kept.has(index)) missing++;
    else {
      const time = columns.time[index] ?? -1;
      if (time >= 0) updates[count++] = times[time] as number;
    }
  });
  return { stations: columns.status.length, missing, updates: updates.subarray(0, count).sort() };
}

/**
 * The newest `lastUpdate` (in milliseconds) a cron refresh published in `columns` that is newer
 * than `since`, of the stations `reported` says the states just read report (by position in the
 * columns); undefined when none. A station that left the feed keeps its last state, and with it
 * the newest report: counted, it would make every file after it look replayed.
 */
export function newestStillReported(
  columns: StateColumns,
  since: number,
  reported: (index: number) => boolean,
): number | undefined {
  // `times` is in no order: each parsed once, and only the stations of the newer ones looked at
  // (none at all while the reports move forward, as they do).
  const newer = columns.times.map((time) => Date.parse(time) > since);
  if (!newer.includes(true)) return undefined;
  let newest: number | undefined;
  columns.status.forEach((status, index) => {
    const time = columns.time[index] ?? -1;
    if (status < 0 || time < 0 || !newer[time] || !reported(index)) return;
    const ms = Date.parse(columns.times[time] as string);
    if (newest === undefined || ms > newest) newest = ms;
  });
  return newest;
}

/**
 * newestStillReported of a server's states: the newest `lastUpdate` of `before` newer than
 * `since` whose station `after` still reports. `beforeHealth` (before's feedHealth) says at once
 * when none is newer, as every minute when the reports move forward: no station looked up.
 */
export function newestStillReportedOfMap(
  before: ReadonlyMap<string, LiveState>,
  beforeHealth: FeedHealth | undefined,
  since: number,
  after: ReadonlyMap<string, LiveState>,
): number | undefined {
  const newestBefore = beforeHealth?.updates.at(-1);
  if (beforeHealth && (newestBefore === undefined || newestBefore <= since)) return undefined;
  const parse = timeParser();
  let newest: number | undefined;
  for (const [key, state] of before) {
    if (state.lastUpdate === null) continue;
    const ms = parse(state.lastUpdate);
    if (ms > since && (newest === undefined || ms > newest) && after.has(key)) newest = ms;
  }
  return newest;
}

/** What says how recent a set of published states is. */
export interface StatesAge {
  /** When the publisher knew them (the states file's time), if known. */
  statesAt?: Date;
  /** Their newest `lastUpdate`, in milliseconds. */
  newest?: number;
}

/**
 * Why the states just published look older than those published before them, or null. A states
 * file replayed (a backup restored, an exporter writing an old file again, one copied with its old
 * time) moves the stations back in time, and GBFS's `last_updated` with them: published all the
 * same (it is what the feed says), but said, once, when it happens.
 */
export function statesWentBack(before: StatesAge, after: StatesAge): string | null {
  const reasons: string[] = [];
  if (before.statesAt && after.statesAt && after.statesAt < before.statesAt)
    reasons.push(
      `dated ${instant(after.statesAt)} (its modification time), before the states published (${instant(before.statesAt)})`,
    );
  if (before.newest !== undefined && after.newest !== undefined && after.newest < before.newest)
    reasons.push(
      `its newest report (${instant(after.newest)}) is older than the newest published (${instant(before.newest)})`,
    );
  if (reasons.length === 0) return null;
  return `${reasons.join("; ")}: an older states file replayed? Published all the same`;
}

const instant = (at: Date | number): string => new Date(at).toISOString().replace(/\.000Z$/, "Z");

/** The `feed` part of /status, and whether it is healthy. */
export function feedStatus(health: FeedHealth, limits: FeedLimits, now: Date) {
  const newest = health.updates.at(-1);
  const cutoff = now.getTime() - limits.staleMinutes * 60_000;
  const fresh = health.updates.length - countBelow(health.updates, cutoff);
  // Missing stations and stations that never reported are stale too: nothing recent is known.
  const stale = health.stations - fresh;
  const staleShare = health.stations === 0 ? 0 : stale / health.stations;
  return {
    ok: staleShare <= limits.maxStaleShare,
    newestLastUpdate: newest === undefined ? null : new Date(newest).toISOString(),
    newestAgeSeconds:
      newest === undefined ? null : Math.max(0, Math.round((now.getTime() - newest) / 1000)),
    missingStations: health.missing,
    staleMinutes: limits.staleMinutes,
    staleStations: stale,
    staleShare: Math.round(staleShare * 1000) / 1000,
    maxStaleShare: limits.maxStaleShare,
  };
}

/** How many sorted values are below `limit` (binary search: 1 million stations at each /status). */
function countBelow(sorted: Float64Array, limit: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as number) < limit) low = middle + 1;
    else high = middle;
  }
  return low;
}
