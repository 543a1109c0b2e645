// What a build or refresh leaves beside the tree for the next cron refresh: files in the release
// folder (never in the served folder), a JSON line and what follows it (lines, or columns of
// bytes), checksummed, trusted only whole (or as last seen whole: cache-seen.ts).
import { createHash } from "node:crypto";
import { closeSync, openSync, readdirSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { bytesOf, type Column, packColumns, unpackColumns } from "./cache-columns.js";
import { type CacheSeen, readSeen, sameFile } from "./cache-seen.js";
import { TextFile } from "./text-file.js";

/** What changes every minute (the stations' states and where their bytes sit), written by every run. */
export const REFRESH_CACHE_FILE = "refresh-cache.json";
/** What changes only with the static source (its records, the static answers), written when it does. */
export const REFRESH_STATIC_FILE = "refresh-static.json";

function checksum(chunks: readonly Uint8Array[]): string {
  const hash = createHash("sha1");
  for (const chunk of chunks) hash.update(chunk);
  return hash.digest("hex");
}

/** A cache file's value and its checksum (which names that content, for another file to refer to). */
export interface CacheRead {
  value: unknown;
  checksum: string;
  /** The lines written after the value (see writeRefreshCache), by position, found when first asked. */
  line(index: number): string | undefined;
  /** The file as it was read: the same later, it holds the same bytes. */
  seen: CacheSeen;
}

/**
 * Null when missing, unreadable or not what was written (the first line is the SHA-1 of the rest,
 * the value's JSON the second line, its typed arrays' bytes after it: see cache-columns.ts). Its
 * checksum is not found again when the file is still as `trusted` saw it.
 */
export function readRefreshCache(
  releaseFolder: string,
  name = REFRESH_CACHE_FILE,
  trusted?: unknown,
): CacheRead | null {
  let bytes: Buffer;
  let seen: CacheSeen;
  try {
    [bytes, seen] = readSeen(join(releaseFolder, name));
  } catch {
    return null;
  }
  const newline = bytes.indexOf(NEW_LINE);
  if (newline < 0) return null;
  const sum = bytes.toString("latin1", 0, newline);
  // The bytes hashed as written: no second encoding of a text of tens of MB.
  const untouched = sameFile(seen, trusted) && bytes.length === seen.size;
  if (!untouched && sum !== checksum([bytes.subarray(newline + 1)])) return null;
  const valueEnd = bytes.indexOf(NEW_LINE, newline + 1);
  try {
    const parsed = JSON.parse(
      bytes.toString("utf8", newline + 1, valueEnd < 0 ? bytes.length : valueEnd),
    ) as unknown;
    const value = unpackColumns(parsed, bytes.subarray(valueEnd < 0 ? bytes.length : valueEnd + 1));
    if (value === null) return null;
    return { value, checksum: sum, line: linesOf(bytes, valueEnd), seen };
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
 * checksum, the value's JSON, then `lines` (each without a line break), one per line, or the bytes
 * of the value's typed arrays (a value holding any has no lines). Returns the checksum written, or
 * null when it could not be written.
 */
export function writeRefreshCache(
  releaseFolder: string,
  value: unknown,
  name = REFRESH_CACHE_FILE,
  lines: Iterable<string> = [],
): string | null {
  const staged = stageRefreshCache(releaseFolder, value, name, lines);
  return staged?.commit() ? staged.checksum : null;
}

/** A cache file written beside its place, not yet renamed over it. */
export interface StagedCache {
  checksum: string;
  /** Renames it into place; false when that failed (nothing is left beside then). */
  commit(): boolean;
  /** Deletes it. */
  discard(): void;
}

/**
 * writeRefreshCache in two steps: written now (a run that makes it while it waits for other work
 * spends no time on it later), renamed into place by `commit`. Null when it could not be written.
 */
export function stageRefreshCache(
  releaseFolder: string,
  value: unknown,
  name = REFRESH_CACHE_FILE,
  lines: Iterable<string> = [],
): StagedCache | null {
  const path = join(releaseFolder, name);
  const temporary = `${path}.tmp-${process.pid}`;
  // Only a speed-up: without it the next refresh renders everything.
  const discard = () => rmSync(temporary, { force: true });
  const packed = packColumns(value);
  // Lines with columns are a bug; only then are they looked at (a generator would lose its first).
  if (packed && !isEmpty(lines)) throw new Error(`bug: ${name} given both columns and lines`);
  let sum: string;
  try {
    sum = writeCacheFile(temporary, packed?.json ?? JSON.stringify(value), lines, packed?.columns);
  } catch {
    discard();
    return null;
  }
  return {
    checksum: sum,
    commit() {
      try {
        renameSync(temporary, path);
        dropStaleCaches(releaseFolder, name);
        return true;
      } catch {
        discard();
        return false;
      }
    },
    discard,
  };
}

const isEmpty = (lines: Iterable<string>): boolean => lines[Symbol.iterator]().next().done === true;

// A SHA-1 in hex, and the line break after it.
const CHECKSUM_LINE = 41;

/**
 * Writes the file: the checksum's line, the value's JSON, then each line; returns the checksum.
 * The body is written as it is encoded and hashed on the way (the ~35 MB of a build's static part
 * at 100,000 stations were once ~90 MB of strings alive until joined, as the names' accents make
 * two-byte strings); the checksum goes in its place at the start once the body is written.
 */
function writeCacheFile(
  path: string,
  json: string,
  lines: Iterable<string>,
  columns: readonly Column[] = [],
): string {
  const fd = openSync(path, "w");
  try {
    const hash = createHash("sha1");
    const text = new TextFile(fd, CHECKSUM_LINE, hash);
    text.add(json);
    for (const line of lines) {
      text.addByte(NEW_LINE);
      text.add(line);
    }
    if (columns.length > 0) text.addByte(NEW_LINE);
    for (const column of columns) text.addBytes(bytesOf(column));
    text.flush();
    const sum = hash.digest("hex");
    if (writeSync(fd, `${sum}\n`, 0, "latin1") !== CHECKSUM_LINE)
      throw new Error(`${path}: the checksum was not written whole`);
    return sum;
  } finally {
    closeSync(fd);
  }
}

/**
 * Deletes what runs killed between writing a cache file beside its place and renaming it left
 * (`NAME.tmp-PID`): one writer holds the tree's lock at a time, so any other is stale.
 */
function dropStaleCaches(releaseFolder: string, name: string): void {
  try {
    for (const entry of readdirSync(releaseFolder))
      if (entry.startsWith(`${name}.tmp-`)) rmSync(join(releaseFolder, entry), { force: true });
  } catch {
    // Only space: the next run tries again.
  }
}
