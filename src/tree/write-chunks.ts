// Writes a body given in chunks to a new file without joining it first: a list of 100,000
// stations spliced by a cron refresh is thousands of chunks and ~70 MB.
import { closeSync, openSync, writeFileSync, writevSync } from "node:fs";
import { open } from "node:fs/promises";

// Linux's IOV_MAX: the most chunks one writev takes.
const IOV_MAX = 1024;

export function writeChunks(path: string, body: readonly Uint8Array[]): void {
  try {
    if (body.length === 1) {
      writeFileSync(path, body[0] as Uint8Array);
      return;
    }
    const fd = openSync(path, "w");
    try {
      for (let at = 0; at < body.length; at += IOV_MAX) {
        let pending = body.slice(at, at + IOV_MAX);
        while (pending.length > 0) pending = rest(pending, writevSync(fd, pending));
      }
    } finally {
      closeSync(fd);
    }
  } catch (cause) {
    throw withPath(cause, path);
  }
}

/**
 * writeChunks in the thread pool: for the big lists of a cron refresh (~300 MB), whose copy into
 * the file system would otherwise take this thread ~0.2 s.
 */
export async function writeChunksInPool(path: string, body: readonly Uint8Array[]): Promise<void> {
  try {
    const file = await open(path, "w");
    try {
      for (let at = 0; at < body.length; at += IOV_MAX) {
        let pending = body.slice(at, at + IOV_MAX);
        while (pending.length > 0)
          pending = rest(pending, (await file.writev(pending)).bytesWritten);
      }
    } finally {
      await file.close();
    }
  } catch (cause) {
    throw withPath(cause, path);
  }
}

/** What a short write leaves: the rest of a chunk, and the chunks after it. */
function rest(pending: Uint8Array[], written: number): Uint8Array[] {
  let left = written;
  let done = 0;
  while (done < pending.length && left >= (pending[done] as Uint8Array).byteLength) {
    left -= (pending[done] as Uint8Array).byteLength;
    done++;
  }
  const after = pending.slice(done);
  if (left > 0) after[0] = (after[0] as Uint8Array).subarray(left);
  return after;
}

function withPath(cause: unknown, path: string): unknown {
  const error = cause as NodeJS.ErrnoException;
  if (error && typeof error === "object" && !error.path) error.path = path;
  return cause;
}
