// A file replaced whole: written beside, then renamed over, so that a reader never sees half of it.
import { closeSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";

/**
 * Writes `data` to `temporary` and renames it to `path`. On failure (a full disk) the temporary
 * file goes too: it would stay beside the file, one more at every failed run, on a full disk.
 * `data` may come as pieces (text or bytes), written as they are made: a big file is never whole
 * in memory.
 */
export function replaceFile(
  path: string,
  temporary: string,
  data: string | Uint8Array | Iterable<string | Uint8Array>,
): void {
  try {
    if (typeof data === "string" || data instanceof Uint8Array) writeFileSync(temporary, data);
    else writePieces(temporary, data);
    renameSync(temporary, path);
  } catch (cause) {
    rmSync(temporary, { force: true });
    // A failed write names no file (the open did): said where it happened.
    const error = cause as NodeJS.ErrnoException;
    if (error && typeof error === "object" && !error.path) error.path = temporary;
    throw cause;
  }
}

function writePieces(path: string, pieces: Iterable<string | Uint8Array>): void {
  const fd = openSync(path, "w");
  try {
    for (const piece of pieces) {
      const bytes = typeof piece === "string" ? Buffer.from(piece) : piece;
      // A file's write is whole but where a signal cuts it short: the rest is written then.
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
    }
  } finally {
    closeSync(fd);
  }
}
