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
  /** The lines written after the value (see writeRefreshCache), by position, found when first asked. */
  line(index: number): string | undefined;
}

/**
 * Null when missing, unreadable or not what was written (the first line is the SHA-1 of the rest,
 * the value's JSON the second line).
 */
export function readRefreshCache(
  releaseFolder: string,
  name = REFRESH_CACHE_FILE,
): CacheRead | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(releaseFolder, name));
  } catch {
    return null;
  }
  const newline = bytes.indexOf(NEW_LINE);
  if (newline < 0) return null;
  const sum = bytes.toString("latin1", 0, newline);
  // The bytes hashed as written: no second encoding of a text of tens of MB.
  if (
    sum !==
    createHash("sha1")
      .update(bytes.subarray(newline + 1))
      .digest("hex")
  )
    return null;
  const valueEnd = bytes.indexOf(NEW_LINE, newline + 1);
  try {
    const value = JSON.parse(
      bytes.toString("utf8", newline + 1, valueEnd < 0 ? bytes.length : valueEnd),
    ) as unknown;
    return { value, checksum: sum, line: linesOf(bytes, valueEnd) };
  } catch {
    return null;
  }
}

const NEW_LINE = 10;

/**
 * The lines after the value's, each found by its position (all found at the first call) and
 * decoded when asked for: a refresh reads a tenth of them.
 */
function linesOf(bytes: Buffer, valueEnd: number): (index: number) => string | undefined {
  let starts: number[] | undefined;
  return (index) => {
    if (!starts) {
      starts = [];
      for (let at = valueEnd; at >= 0; at = bytes.indexOf(NEW_LINE, at + 1)) starts.push(at + 1);
      starts.push(bytes.length + 1);
    }
    const start = starts[index];
    const next = starts[index + 1];
    return start === undefined || next === undefined
      ? undefined
      : bytes.toString("utf8", start, next - 1);
  };
}

/**
 * Written beside and renamed over, so a reader finds the old cache or the new one, whole: the
 * checksum, the value's JSON, then `lines` (each without a line break), one per line. Returns the
 * checksum written, or null when it could not be written.
 */
export function writeRefreshCache(
  releaseFolder: string,
  value: unknown,
  name = REFRESH_CACHE_FILE,
  lines: readonly string[] = [],
): string | null {
  const path = join(releaseFolder, name);
  const body =
    lines.length > 0 ? `${JSON.stringify(value)}\n${lines.join("\n")}` : JSON.stringify(value);
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
