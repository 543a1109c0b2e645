// The worker thread of SmallBodies: compresses each body of a batch in turn with zlib's
// synchronous calls (compressHere) and hands the variants back in shared memory.
import { parentPort } from "node:worker_threads";
import { compressHere } from "./compress.js";
import type { SmallBatch, SmallReply } from "./small-bodies.js";

// The variants of a batch are copied back to back into one buffer of shared memory, of their size
// (a server keeps them as long as the release they are in: a buffer sized for the batch would
// keep five sixths of it unused): views of it are memory V8 does not count as the main thread's.
parentPort?.on("message", ({ id, bytes, starts, levels }: SmallBatch) => {
  try {
    const count = starts.length - 1;
    const made = Array.from({ length: count }, (_, index) =>
      compressHere(
        [
          new Uint8Array(
            bytes,
            starts[index],
            (starts[index + 1] as number) - (starts[index] as number),
          ),
        ],
        { gzip: levels[2 * index] as number, brotli: levels[2 * index + 1] as number },
      ),
    );
    const total = made.reduce((sum, { gzip, br }) => sum + gzip.byteLength + br.byteLength, 0);
    const output = new Uint8Array(new SharedArrayBuffer(total));
    const places = new Float64Array(3 * count);
    let used = 0;
    made.forEach(({ gzip, br }, index) => {
      output.set(gzip, used);
      output.set(br, used + gzip.byteLength);
      places.set([used, gzip.byteLength, br.byteLength], 3 * index);
      used += gzip.byteLength + br.byteLength;
    });
    parentPort?.postMessage({ id, buffer: output.buffer, places } satisfies SmallReply);
  } catch (error) {
    parentPort?.postMessage({
      id,
      error: error instanceof Error ? error.message : String(error),
    } satisfies SmallReply);
  }
});
