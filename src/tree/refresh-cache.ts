// What a build or refresh leaves beside the tree for the next cron refresh: JSON files in the
// release folder (never in the served folder), checksummed, trusted only whole.
import { createHash } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** What changes every minute (the stations' states and where their bytes sit), written by every run. */
export const REFRESH_CACHE_FILE = "refresh-cache.json";
/** What changes only with the static source (its records, the static answers), written when it does. */
export const REFRESH_STATIC_FILE = "refresh-static.json";

const checksum = (text: string): string => createHash("sha1").update(text).digest("hex");

/** A cache file's value and its checksum (which names that content, for another file to refer to). */
export interface CacheRead {
  value: unknown;
  checksum: string;
}

/** Null when missing, unreadable or not what was written (the first line is the rest's SHA-1). */
export function readRefreshCache(
  releaseFolder: string,
  name = REFRESH_CACHE_FILE,
): CacheRead | null {
  let text: string;
  try {
    text = readFileSync(join(releaseFolder, name), "utf8");
  } catch {
    return null;
  }
  const newline = text.indexOf("\n");
  if (newline < 0) return null;
  const body = text.slice(newline + 1);
  const sum = text.slice(0, newline);
  if (sum !== checksum(body)) return null;
  try {
    return { value: JSON.parse(body) as unknown, checksum: sum };
  } catch {
    return null;
  }
}

/**
 * Written beside and renamed over, so a reader finds the old cache or the new one, whole. Returns
 * the checksum written, or null when it could not be written.
 */
export function writeRefreshCache(
  releaseFolder: string,
  value: unknown,
  name = REFRESH_CACHE_FILE,
): string | null {
  const path = join(releaseFolder, name);
  const body = JSON.stringify(value);
  const sum = checksum(body);
  const temporary = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(temporary, `${sum}\n${body}`);
    renameSync(temporary, path);
    return sum;
  } catch {
    // Only a speed-up: without it the next refresh renders everything.
    rmSync(temporary, { force: true });
    return null;
  }
}
