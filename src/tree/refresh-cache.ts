// What a build or refresh leaves beside the tree for the next cron refresh: one JSON file in the
// release folder (never in the served folder), checksummed, trusted only whole.
import { createHash } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const REFRESH_CACHE_FILE = "refresh-cache.json";

const checksum = (text: string): string => createHash("sha1").update(text).digest("hex");

/** Null when missing, unreadable or not what was written (the first line is the rest's SHA-1). */
export function readRefreshCache(releaseFolder: string): unknown {
  let text: string;
  try {
    text = readFileSync(join(releaseFolder, REFRESH_CACHE_FILE), "utf8");
  } catch {
    return null;
  }
  const newline = text.indexOf("\n");
  if (newline < 0) return null;
  const body = text.slice(newline + 1);
  if (text.slice(0, newline) !== checksum(body)) return null;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return null;
  }
}

/** Written beside and renamed over, so a reader finds the old cache or the new one, whole. */
export function writeRefreshCache(releaseFolder: string, value: unknown): void {
  const path = join(releaseFolder, REFRESH_CACHE_FILE);
  const body = JSON.stringify(value);
  const temporary = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(temporary, `${checksum(body)}\n${body}`);
    renameSync(temporary, path);
  } catch {
    // Only a speed-up: without it the next refresh renders everything.
    rmSync(temporary, { force: true });
  }
}
