// A cache file of the refresh state as `stat` saw it: while it is still so, the next run need not
// hash it again (~30 ms a minute for a static part of ~33 MB at 100,000 stations).
import { closeSync, fstatSync, openSync, readSync, type Stats, statSync } from "node:fs";
import { join } from "node:path";
import { RACY_MS } from "../racily-clean.js";

/**
 * A file's inode, size and times, and when they were seen (`at`, ms since the epoch). The same
 * as when its checksum was found right is the same file, untouched: a change, even by hand and
 * of the same size, sets its ctime, which no one can set back.
 */
export interface CacheSeen {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  at: number;
}

const seenOf = ({ ino, size, mtimeMs, ctimeMs }: Stats): CacheSeen => ({
  ino,
  size,
  mtimeMs,
  ctimeMs,
  at: Date.now(),
});

/**
 * Whether `seen` is the file `trusted` saw, and `trusted` was seen long enough after the file's
 * last change for its times to tell a later change (anything else, read as a record, is not).
 */
export function sameFile(seen: CacheSeen, trusted: unknown): boolean {
  if (trusted === null || typeof trusted !== "object") return false;
  const { ino, size, mtimeMs, ctimeMs, at } = trusted as Partial<CacheSeen>;
  return (
    typeof at === "number" &&
    typeof mtimeMs === "number" &&
    typeof ctimeMs === "number" &&
    at - Math.max(mtimeMs, ctimeMs) >= RACY_MS &&
    seen.ino === ino &&
    seen.size === size &&
    seen.mtimeMs === mtimeMs &&
    seen.ctimeMs === ctimeMs
  );
}

/** How a cache file is seen now, or undefined when it cannot be. */
export function cacheSeen(releaseFolder: string, name: string): CacheSeen | undefined {
  try {
    return seenOf(statSync(join(releaseFolder, name)));
  } catch {
    return undefined;
  }
}

/** The file's bytes and how it was seen as they were read (one open: the same file). */
export function readSeen(path: string): [Buffer, CacheSeen] {
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
