// The variants of a build (and of a refresh that renders everything) made from a worker thread.
// zlib compresses in the thread pool either way; what moves is the JavaScript around it and the
// buffers it allocates. On the build's thread, at a million stations, ~1.6 GB of zlib output
// buffers (joined, then kept) was memory V8 counts as external: it started a marking of the whole
// ~2 GB heap every 64 MB of it (allocating them took ~19 s of that thread under the profiler,
// markings included). A worker's heap is small, and the variants come back in shared memory,
// which V8 does not count.
import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { placesOf } from "../shared-places.js";
import {
  type CompressOptions,
  compressEach,
  compressRelease,
  type Levels,
  type VariantsMade,
} from "./compress.js";
import type { Release, ReleaseFile, Variants } from "./release.js";

// Compiled beside this module; absent when running from the TypeScript sources (tests).
const WORKER = new URL("./compress-worker.js", import.meta.url);

/** A body to compress: its chunks as places in shared memory (see placesOf) and the levels. */
export interface CompressionJob {
  id: number;
  memory: SharedArrayBuffer[];
  places: Float64Array;
  levels: Levels;
}

export type CompressionReply =
  | { id: number; buffer: SharedArrayBuffer; start: number; gzipSize: number; brSize: number }
  | { id: number; error: string };

interface Pending {
  resolve(variants: Variants): void;
  reject(error: Error): void;
}

/** compressBody from a worker thread (`start`: none when the compiled worker is not there). */
export class CompressionWorker {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #jobs = 0;
  /** Why the worker is gone, once it is. */
  #ended: Error | undefined;

  static start(): CompressionWorker | null {
    return existsSync(WORKER) ? new CompressionWorker(new Worker(WORKER)) : null;
  }

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on("message", (reply: CompressionReply) => this.#replied(reply));
    worker.on("error", (error) => this.#failAll(error));
    worker.on("exit", (code) =>
      this.#failAll(new Error(`the compression worker ended with code ${code}`)),
    );
    // Referenced only while a body is out: an idle worker does not keep the process running.
    worker.unref();
  }

  /** Both variants of `body` (see compressBody): the same bytes, made in the worker. */
  compress = (body: readonly Uint8Array[], levels: Levels): Promise<Variants> => {
    const id = this.#jobs++;
    const { memory, places } = placesOf(body, true);
    const job: CompressionJob = { id, memory: memory as SharedArrayBuffer[], places, levels };
    return new Promise<Variants>((resolve, reject) => {
      if (this.#ended) return reject(this.#ended);
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage(job);
    });
  };

  /** Ends the worker; bodies still out, and any sent after, are refused. */
  async stop(): Promise<void> {
    this.#ended ??= new Error("the compression worker was stopped");
    await this.#worker.terminate();
    this.#failAll(this.#ended);
  }

  #replied(reply: CompressionReply): void {
    const pending = this.#pending.get(reply.id);
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if (!pending) return;
    if ("error" in reply) pending.reject(new Error(`compressing a file: ${reply.error}`));
    else {
      const { buffer, start, gzipSize, brSize } = reply;
      pending.resolve({
        gzip: Buffer.from(buffer, start, gzipSize),
        br: Buffer.from(buffer, start + gzipSize, brSize),
      });
    }
  }

  #failAll(error: Error): void {
    this.#ended ??= error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}

/** compressRelease with its bodies compressed from a worker thread, started and ended with it. */
export function compressReleaseOffThread(
  release: Release,
  options: Omit<CompressOptions, "compress">,
): Promise<Release> {
  return withWorker((compress) => compressRelease(release, { ...options, compress }));
}

/** compressEach with its bodies compressed from a worker thread, started and ended with it. */
export function compressEachOffThread(
  files: ReadonlyMap<string, ReleaseFile>,
  options: Omit<CompressOptions, "compress" | "previous">,
  made: VariantsMade,
): Promise<void> {
  return withWorker((compress) => compressEach(files, { ...options, compress }, made));
}

async function withWorker<T>(work: (compress?: CompressOptions["compress"]) => Promise<T>) {
  const worker = CompressionWorker.start();
  try {
    return await work(worker?.compress);
  } finally {
    await worker?.stop();
  }
}
