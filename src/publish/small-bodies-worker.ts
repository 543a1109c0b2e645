// The worker thread of SmallBodies: compresses each body of a batch in turn with zlib's
// synchronous calls (compressHere) and hands the variants back in shared memory.
import { parentPort } from "node:worker_threads";
import { compressHere } from "./compress.js";
import type { SmallBatch, SmallReply } from "./small-bodies.js";

// Variants are copied back to back into shared buffers, each the size of the batch (lists and
// feeds compress to a sixth of it or less) or more when it must: views of them are memory V8 does
// not count as the main thread's own.
const MIN_OUTPUT = 64 << 10;

parentPort?.on("message", ({ id, bytes, starts, levels }: SmallBatch) => {
  try {
    const count = starts.length - 1;
    const buffers: SharedArrayBuffer[] = [];
    const places = new Float64Array(4 * count);
    let output: Uint8Array<SharedArrayBuffer> = new Uint8Array(new SharedArrayBuffer(0));
    let used = 0;
    for (let index = 0; index < count; index++) {
      const body = new Uint8Array(
        bytes,
        starts[index],
        (starts[index + 1] as number) - (starts[index] as number),
      );
      const { gzip, br } = compressHere([body], {
        gzip: levels[2 * index] as number,
        brotli: levels[2 * index + 1] as number,
      });
      const size = gzip.byteLength + br.byteLength;
      if (used + size > output.byteLength) {
        output = new Uint8Array(
          new SharedArrayBuffer(Math.max(MIN_OUTPUT, bytes.byteLength, size)),
        );
        buffers.push(output.buffer);
        used = 0;
      }
      output.set(gzip, used);
      output.set(br, used + gzip.byteLength);
      places.set([buffers.length - 1, used, gzip.byteLength, br.byteLength], 4 * index);
      used += size;
    }
    parentPort?.postMessage({ id, buffers, places } satisfies SmallReply);
  } catch (error) {
    parentPort?.postMessage({
      id,
      error: error instanceof Error ? error.message : String(error),
    } satisfies SmallReply);
  }
});
