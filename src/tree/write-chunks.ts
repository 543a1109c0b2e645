// Writes a body given in chunks to a new file without joining it first: a list of 100,000
// stations spliced by a cron refresh is thousands of chunks and ~70 MB.
import { closeSync, openSync, writeFileSync, writevSync } from "node:fs";

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
        while (pending.length > 0) {
          // A short write leaves the rest of a chunk, and the chunks after it, for the next call.
          let written = writevSync(fd, pending);
          let done = 0;
          while (done < pending.length && written >= (pending[done] as Uint8Array).byteLength) {
            written -= (pending[done] as Uint8Array).byteLength;
            done++;
          }
          pending = pending.slice(done);
          if (written > 0) pending[0] = (pending[0] as Uint8Array).subarray(written);
        }
      }
    } finally {
      closeSync(fd);
    }
  } catch (cause) {
    const error = cause as NodeJS.ErrnoException;
    if (error && typeof error === "object" && !error.path) error.path = path;
    throw cause;
  }
}
