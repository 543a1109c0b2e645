// What a build or refresh leaves beside the tree for the next cron refresh: JSON files in the
// release folder (never in the served folder), checksummed, trusted only whole.
import { createHash } from "node:crypto";
import {
  closeSync,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { type Column, packColumns, unpackColumns } from "./cache-columns.js";
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
 * A cache file as `stat` sees it, and when (`at`, ms since the epoch). The same inode, size and
 * times as when its checksum was found right is the same file, untouched: a change, even by hand,
 * sets its ctime, which no one can set back. The next run then needs not hash it again (~30 ms a
 * minute for a static part of ~33 MB at 100,000 stations).
 */
export interface CacheSeen {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  at: number;
}

/**
 * Seen this soon after its last change, a file is hashed again all the same: a change in the same
 * clock tick, of the same size, would leave its times as they were (git's "racily clean" files;
 * the static source is read again so, see source-fingerprint.ts).
 */
const RACY_MS = 2000;

const seenOf = ({ ino, size, mtimeMs, ctimeMs }: Stats): CacheSeen => ({
  ino,
  size,
  mtimeMs,
  ctimeMs,
  at: Date.now(),
});

const sameFile = (seen: CacheSeen, trusted: CacheSeen | undefined): boolean =>
  trusted !== undefined &&
  trusted.at - Math.max(trusted.mtimeMs, trusted.ctimeMs) >= RACY_MS &&
  seen.ino === trusted.ino &&
  seen.size === trusted.size &&
  seen.mtimeMs === trusted.mtimeMs &&
  seen.ctimeMs === trusted.ctimeMs;

/** How a cache file is seen now, or undefined when it cannot be. */
export function cacheSeen(releaseFolder: string, name: string): CacheSeen | undefined {
  try {
    return seenOf(statSync(join(releaseFolder, name)));
  } catch {
    return undefined;
  }
}

/**
 * Null when missing, unreadable or not what was written (the first line is the SHA-1 of the rest,
 * the value's JSON the second line, its typed arrays' bytes after it: see cache-columns.ts). Its
 * checksum is not found again when the file is still as `trusted` saw it.
 */
export function readRefreshCache(
  releaseFolder: string,
  name = REFRESH_CACHE_FILE,
  trusted?: CacheSeen,
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

/** The file's bytes and how it was seen as they were read (one open: the same file). */
function readSeen(path: string): [Buffer, CacheSeen] {
  const fd = openSync(path, "r");
  try {
    const seen = seenOf(fstatSync(fd));
    const bytes = Buffer.allocUnsafe(seen.size);
    let done = 0;
    while (done < bytes.length) {
      const read = readSync(fd, bytes, done, bytes.length - done, done);
      if (read === 0) break;
      done += read;
    }
    return [bytes.subarray(0, done), seen];
  } finally {
    closeSync(fd);
  }
}

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
  // Asked only of a value with columns: a generator's first line would be taken.
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
    for (const column of columns)
      text.addBytes(new Uint8Array(column.buffer, column.byteOffset, column.byteLength));
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
