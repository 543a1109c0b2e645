// Writes a body given in chunks to a file without joining them: a list of a million stations is
// ~700 MB in ~2 million chunks, and joining it first doubled that in memory and copied it once more.
import { closeSync, openSync, writeSync, writevSync } from "node:fs";

// Linux takes at most IOV_MAX (1024) buffers per writev(2).
const IOV_MAX = 1024;

/** Creates or truncates `destination` and writes the chunks in order, with a few writev(2) calls. */
export function writeChunks(destination: string, chunks: readonly Uint8Array[]): void {
  const fd = openSync(destination, "w");
  try {
    for (let start = 0; start < chunks.length; start += IOV_MAX) {
      const group = chunks.slice(start, start + IOV_MAX);
      let expected = 0;
      for (const chunk of group) expected += chunk.byteLength;
      const written = writevSync(fd, group);
      if (written < expected) writeRest(fd, group, written);
    }
  } finally {
    closeSync(fd);
  }
}

/** After a short writev (a signal, a full pipe; rare on a file): the rest, chunk by chunk. */
function writeRest(fd: number, group: readonly Uint8Array[], done: number): void {
  let skip = done;
  for (const chunk of group) {
    if (skip >= chunk.byteLength) {
      skip -= chunk.byteLength;
      continue;
    }
    let at = skip;
    skip = 0;
    while (at < chunk.byteLength) at += writeSync(fd, chunk, at, chunk.byteLength - at);
  }
}
