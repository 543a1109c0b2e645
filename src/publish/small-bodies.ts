// Small bodies (lists and feeds of a few KB) compressed by one worker thread with zlib's
// synchronous calls, sent to it in batches. Through the thread pool each body costs ~0.2 ms of CPU
// beyond its compression (streams, round trips and wake-ups, its compressors' state allocated and
// zeroed), ~0.07 ms here; a cron refresh of 100,000 stations in 2,000 contracts has ~8,000 of them
// a minute. In a thread of its own, not the main one, which stages the files meanwhile.
import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { compressHere, type Levels, SMALL_BODY } from "./compress.js";
import type { Variants } from "./release.js";
import { sizeOf } from "./zlib-input.js";

// Compiled beside this module; absent when running from the TypeScript sources (tests).
const WORKER = new URL("./small-bodies-worker.js", import.meta.url);

// A batch is sent once it holds this many bytes, or when the event loop next turns.
const BATCH_BYTES = 1 << 20;

/** Bodies back to back in shared memory: the i-th from starts[i] to starts[i + 1]. */
export interface SmallBatch {
  id: number;
  bytes: SharedArrayBuffer;
  starts: Float64Array;
  /** Per body: its gzip level, then its brotli quality. */
  levels: Int32Array;
}

/** Per body of the batch, in order: its variants' buffer (an index), start, gzip and brotli sizes. */
export type SmallReply =
  | { id: number; buffers: SharedArrayBuffer[]; places: Float64Array }
  | { id: number; error: string };

interface Waiting {
  body: readonly Uint8Array[];
  size: number;
  levels: Levels;
  resolve(variants: Variants): void;
  reject(error: Error): void;
}

/** compressHere for bodies of up to SMALL_BODY bytes, from a worker thread. */
export class SmallBodies {
  /** Started with the first body: null when the compiled worker is not there. */
  #worker: Worker | null | undefined;
  #batch: Waiting[] = [];
  #batchBytes = 0;
  #sendScheduled = false;
  readonly #sent = new Map<number, Waiting[]>();
  #batches = 0;
  #ended: Error | undefined;

  /** compressBody's variants of `body` (the same bytes), at most SMALL_BODY bytes. */
  compress = (body: readonly Uint8Array[], levels: Levels): Promise<Variants> => {
    const size = sizeOf(body);
    if (size > SMALL_BODY) throw new Error(`bug: a body of ${size} bytes sent as a small one`);
    if (this.#ended) return Promise.reject(this.#ended);
    const worker = this.#started();
    // From the TypeScript sources (tests): in this thread.
    if (!worker) return Promise.resolve().then(() => compressHere(body, levels));
    return new Promise<Variants>((resolve, reject) => {
      this.#batch.push({ body, size, levels, resolve, reject });
      this.#batchBytes += size;
      if (this.#batchBytes >= BATCH_BYTES) this.#send(worker);
      else if (!this.#sendScheduled) {
        this.#sendScheduled = true;
        setImmediate(() => this.#send(worker));
      }
    });
  };

  #started(): Worker | null {
    if (this.#worker !== undefined) return this.#worker;
    const worker = existsSync(WORKER) ? new Worker(WORKER) : null;
    worker?.on("message", (reply: SmallReply) => this.#replied(reply));
    worker?.on("error", (error) => this.#failAll(error));
    worker?.on("exit", (code) =>
      this.#failAll(new Error(`the worker compressing small bodies ended with code ${code}`)),
    );
    // Referenced only while a batch is out: an idle worker does not keep the process running.
    worker?.unref();
    this.#worker = worker;
    return worker;
  }

  /** Ends the worker; bodies still out, and any sent after, are refused. */
  async stop(): Promise<void> {
    this.#ended ??= new Error("the worker compressing small bodies was stopped");
    await this.#worker?.terminate();
    this.#failAll(this.#ended);
  }

  #send(worker: Worker): void {
    this.#sendScheduled = false;
    const batch = this.#batch;
    if (batch.length === 0 || this.#ended) return;
    this.#batch = [];
    this.#batchBytes = 0;
    const starts = new Float64Array(batch.length + 1);
    batch.forEach((waiting, index) => {
      starts[index + 1] = (starts[index] as number) + waiting.size;
    });
    const bytes = new SharedArrayBuffer(starts[batch.length] as number);
    const view = new Uint8Array(bytes);
    const levels = new Int32Array(2 * batch.length);
    batch.forEach((waiting, index) => {
      let at = starts[index] as number;
      for (const chunk of waiting.body) {
        view.set(chunk, at);
        at += chunk.byteLength;
      }
      levels[2 * index] = waiting.levels.gzip;
      levels[2 * index + 1] = waiting.levels.brotli;
    });
    const id = this.#batches++;
    if (this.#sent.size === 0) worker.ref();
    this.#sent.set(id, batch);
    worker.postMessage({ id, bytes, starts, levels } satisfies SmallBatch);
  }

  #replied(reply: SmallReply): void {
    const batch = this.#sent.get(reply.id);
    this.#sent.delete(reply.id);
    if (this.#sent.size === 0) this.#worker?.unref();
    if (!batch) return;
    if ("error" in reply) {
      const error = new Error(`compressing a small body: ${reply.error}`);
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    const { buffers, places } = reply;
    batch.forEach((waiting, index) => {
      const buffer = buffers[places[4 * index] as number] as SharedArrayBuffer;
      const start = places[4 * index + 1] as number;
      const gzipSize = places[4 * index + 2] as number;
      waiting.resolve({
        gzip: Buffer.from(buffer, start, gzipSize),
        br: Buffer.from(buffer, start + gzipSize, places[4 * index + 3] as number),
      });
    });
  }

  /** Every body out or waiting refused, for the first reason the worker went (a stop's, say). */
  #failAll(error: Error): void {
    this.#ended ??= error;
    const reason = this.#ended;
    for (const batch of this.#sent.values()) for (const waiting of batch) waiting.reject(reason);
    this.#sent.clear();
    for (const waiting of this.#batch) waiting.reject(reason);
    this.#batch = [];
  }
}
