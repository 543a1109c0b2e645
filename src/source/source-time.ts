// When the static source last changed: the time GBFS gives its static feeds.
import { statSync } from "node:fs";
import { join } from "node:path";
import { type Problem, warning } from "./problems.js";

// Parkings are not in the GBFS feeds: editing them must not move their time.
const FILES = ["contracts.json", "stations.json", "stations.csv"];
// The bundle's data: the same and the parkings.
const PARKING_FILES = ["parkings.json", "parkings.csv"];

/** GBFS v2.3's earliest `last_updated` (2015-12-15T05:00:00Z): the schema refuses anything before. */
export const GBFS_EARLIEST_MS = 1_450_155_600_000;

/** How far two machines' clocks may be apart: a time further ahead than this is worth a word. */
export const CLOCKS_APART_MS = 15 * 60_000;

type Modification = { file: string; ms: number };

/** The newest of the files' modification times, to the second, and the file it is of. */
function newestModification(dir: string, files: readonly string[] = FILES): Modification | null {
  let newest: Modification | null = null;
  for (const name of files) {
    const file = join(dir, name);
    try {
      const ms = Math.floor(statSync(file).mtimeMs / 1000) * 1000;
      if (newest === null || ms > newest.ms) newest = { file, ms };
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code !== "ENOENT") throw cause;
    }
  }
  return newest;
}

export interface StaticSourceTimes {
  /**
   * The latest modification time of the files the static GBFS feeds come from, to the second, so
   * that their `last_updated` (and their bytes) move only when the source does, not at each build.
   */
  staticUpdatedAt: Date;
  /** The same of the files the bundle's tables come from, parkings too: the bundle's and the portal's date. */
  dataUpdatedAt: Date;
}

/**
 * When the static source last changed, for the GBFS feeds and for the bundle. A time no feed may
 * say (before GBFS's earliest, as image builders that date every file 1970 leave it, or ahead of
 * this machine's clock) is brought within them; sourceTimeProblems says so.
 */
export function staticSourceTimes(dir: string, now = Date.now()): StaticSourceTimes {
  const feeds = newestModification(dir);
  const parkings = newestModification(dir, PARKING_FILES);
  const feedsMs = feeds?.ms ?? GBFS_EARLIEST_MS;
  return {
    staticUpdatedAt: withinFeedTimes(feedsMs, now),
    dataUpdatedAt: withinFeedTimes(Math.max(feedsMs, parkings?.ms ?? 0), now),
  };
}

/** A modification time, to the second, brought within GBFS's earliest and the clock. */
function withinFeedTimes(mtimeMs: number, now: number): Date {
  const ms = Math.floor(mtimeMs / 1000) * 1000;
  return new Date(Math.min(Math.max(ms, GBFS_EARLIEST_MS), Math.floor(now / 1000) * 1000));
}

/**
 * When the publisher knew the states of the file at `path`: its modification time, to the second,
 * brought within the times a feed may say as staticSourceTimes does (the states' own times are
 * checked record by record). Undefined when there is no such file.
 */
export function statesFileTime(path: string, now = Date.now()): Date | undefined {
  const stats = statSync(path, { throwIfNoEntry: false });
  return stats ? statesTimeOf(stats.mtimeMs, now) : undefined;
}

/** statesFileTime of a file modified at `mtimeMs`. */
export const statesTimeOf = (mtimeMs: number, now = Date.now()): Date =>
  withinFeedTimes(mtimeMs, now);

/** A warning when staticSourceTimes cannot give the files' own time. */
export function sourceTimeProblems(dir: string, now = Date.now()): Problem[] {
  const newest = newestModification(dir);
  if (newest === null) return [];
  const when = new Date(newest.ms).toISOString().slice(0, 19);
  if (newest.ms < GBFS_EARLIEST_MS)
    return [
      warning(
        { file: newest.file },
        undefined,
        `modified ${when}Z, before 2015-12-15, the earliest time GBFS accepts: the static GBFS feeds say 2015-12-15T05:00:00Z; give the files their real time (touch)`,
      ),
    ];
  // A few minutes ahead is two machines' clocks: brought back without a word.
  if (newest.ms > now + CLOCKS_APART_MS)
    return [
      warning(
        { file: newest.file },
        undefined,
        `modified ${when}Z, ahead of this machine's clock: the static GBFS feeds say the time of this run instead; check the clock of the machine that wrote it`,
      ),
    ];
  return [];
}
