// The worker thread of CompressionWorker: compresses each body it is sent (as compressBody does, in
// the thread pool, or as a contract's list's pieces, kept) and hands both variants back in shared
// memory, or writes them as the siblings of the files it is given and hands back their sizes.
import { parentPort } from "node:worker_threads";
import { writeSiblingFiles } from "../tree/siblings.js";
import { compressChunks, KeptPieces } from "./compress.js";
import type { CompressionJob, CompressionReply } from "./compression-worker.js";
import type { Variants } from "./release.js";

// Variants are copied back to back into shared buffers of this size (or one of their own when
// bigger): the main thread's views of them are memory V8 does not count as its own.
const OUTPUT = 32 << 20;
let output = new SharedArrayBuffer(0);
let used = 0;

/** `size` bytes of shared memory: its buffer, and where they start there. */
function room(size: number): [SharedArrayBuffer, number] {
  if (used + size > output.byteLength) {
    output = new SharedArrayBuffer(Math.max(OUTPUT, size));
    used = 0;
  }
  used += size;
  return [output, used - size];
}

/** The body's chunks, each a view made as it is read: a list of a million stations is 2 million. */
function* chunksOf({ memory, places }: CompressionJob): Generator<Uint8Array> {
  for (let at = 0; at < places.length; at += 3) {
    const start = places[at + 1] as number;
    const buffer = memory[places[at] as number] as SharedArrayBuffer;
    yield new Uint8Array(buffer, start, (places[at + 2] as number) - start);
  }
}

function sizeOf({ places }: CompressionJob): number {
  let size = 0;
  for (let at = 0; at < places.length; at += 3)
    size += (places[at + 2] as number) - (places[at + 1] as number);
  return size;
}

// Contracts' lists compressed as pieces, for the lists of all stations made of them.
const kept = new KeptPieces();

/** The job's variants: its body's, or the list's of all made of kept pieces. */
function variantsOf(job: CompressionJob): Promise<Variants> | Variants {
  if (job.join) return kept.join(job.join.keys, job.join.size);
  if (!job.levels) throw new Error("bug: a body to compress came without its levels");
  if (job.keep) {
    // Read twice when its own variants are compressed whole besides its pieces.
    const body = { [Symbol.iterator]: () => chunksOf(job) };
    return kept.compress(body, sizeOf(job), job.levels, job.keep, job.pieceLevels);
  }
  return compressChunks(chunksOf(job), sizeOf(job), job.levels);
}

parentPort?.on("message", async (job: CompressionJob) => {
  try {
    const { gzip, br } = await variantsOf(job);
    if (job.siblings) {
      for (const file of job.siblings) writeSiblingFiles(file, { gzip, br });
      const reply: CompressionReply = {
        id: job.id,
        gzipSize: gzip.byteLength,
        brSize: br.byteLength,
      };
      parentPort?.postMessage(reply);
      return;
    }
    const [buffer, start] = room(gzip.byteLength + br.byteLength);
    const bytes = new Uint8Array(buffer);
    bytes.set(gzip, start);
    bytes.set(br, start + gzip.byteLength);
    const reply: CompressionReply = {
      id: job.id,
      buffer,
      start,
      gzipSize: gzip.byteLength,
      brSize: br.byteLength,
    };
    parentPort?.postMessage(reply);
  } catch (error) {
    const { code, path, syscall } = (error ?? {}) as NodeJS.ErrnoException;
    parentPort?.postMessage({
      id: job.id,
      error: error instanceof Error ? error.message : String(error),
      // A file system's error (a full disk) keeps what says where; zlib's have a code and no call.
      ...(typeof code === "string" && syscall ? { code, path, syscall } : {}),
    } satisfies CompressionReply);
  }
});
