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

// A batch is sent once this many bytes wait, or when the event loop next turns; at most IN_FLIGHT
// are out at once, the other bodies waiting here, not yet copied: a network's bodies are never
// all copied at once (~170 MB a minute at 100,000 stations in 2,000 contracts). Enough to keep
// the worker busy through a cron refresh's splice, which sends them and cannot take replies
// meanwhile (minutes of 3.61-3.79 s with 64, 3.96-4.12 s with 2, 3.56-3.66 s with no limit).
const BATCH_BYTES = 1 << 20;
const IN_FLIGHT = 64;

/** Bodies back to back in shared memory: the i-th from starts[i] to starts[i + 1]. */
export interface SmallBatch {
  id: number;
  bytes: SharedArrayBuffer;
  starts: Float64Array;
  /** Per body: its gzip level, then its brotli quality. */
  levels: Int32Array;
}

/** The batch's variants back to back; per body, in order: their start, gzip and brotli sizes. */
export type SmallReply =
  | { id: number; buffer: SharedArrayBuffer; places: Float64Array }
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
  /** Bodies not sent yet, in the order given, and their bytes. */
  #waiting: Waiting[] = [];
  #waitingBytes = 0;
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
      this.#waiting.push({ body, size, levels, resolve, reject });
      this.#waitingBytes += size;
      if (this.#waitingBytes >= BATCH_BYTES) this.#send(worker, false);
      else if (!this.#sendScheduled) {
        this.#sendScheduled = true;
        setImmediate(() => {
          this.#sendScheduled = false;
          this.#send(worker, true);
        });
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

  /** Batches sent while fewer than IN_FLIGHT are out: full ones, and with `partial` the rest. */
  #send(worker: Worker, partial: boolean): void {
    while (
      !this.#ended &&
      this.#sent.size < IN_FLIGHT &&
      this.#waiting.length > 0 &&
      (partial || this.#waitingBytes >= BATCH_BYTES)
    )
      this.#sendBatch(worker);
  }

  /** The first waiting bodies, up to BATCH_BYTES (one at least), copied and sent. */
  #sendBatch(worker: Worker): void {
    let bytes = 0;
    let count = 0;
    while (count < this.#waiting.length && (count === 0 || bytes < BATCH_BYTES))
      bytes += (this.#waiting[count++] as Waiting).size;
    const batch = this.#waiting.splice(0, count);
    this.#waitingBytes -= bytes;
    const starts = new Float64Array(count + 1);
    const memory = new Uint8Array(new SharedArrayBuffer(bytes));
    const levels = new Int32Array(2 * count);
    batch.forEach((waiting, index) => {
      let at = starts[index] as number;
      for (const chunk of waiting.body) {
        memory.set(chunk, at);
        at += chunk.byteLength;
      }
      starts[index + 1] = at;
      levels[2 * index] = waiting.levels.gzip;
      levels[2 * index + 1] = waiting.levels.brotli;
    });
    const id = this.#batches++;
    if (this.#sent.size === 0) worker.ref();
    this.#sent.set(id, batch);
    worker.postMessage({
      id,
      bytes: memory.buffer,
      starts,
      levels,
    } satisfies SmallBatch);
  }

  #replied(reply: SmallReply): void {
    const batch = this.#sent.get(reply.id);
    this.#sent.delete(reply.id);
    if (this.#worker) this.#send(this.#worker, true);
    if (this.#sent.size === 0) this.#worker?.unref();
    if (!batch) return;
    if ("error" in reply) {
      const error = new Error(`compressing a small body: ${reply.error}`);
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    const { buffer, places } = reply;
    batch.forEach((waiting, index) => {
      const start = places[3 * index] as number;
      const gzipSize = places[3 * index + 1] as number;
      waiting.resolve({
        gzip: Buffer.from(buffer, start, gzipSize),
        br: Buffer.from(buffer, start + gzipSize, places[3 * index + 2] as number),
      });
    });
  }

  /** Every body out or waiting refused, for the first reason the worker went (a stop's, say). */
  #failAll(error: Error): void {
    this.#ended ??= error;
    const reason = this.#ended;
    for (const batch of this.#sent.values()) for (const waiting of batch) waiting.reject(reason);
    this.#sent.clear();
    for (const waiting of this.#waiting) waiting.reject(reason);
    this.#waiting = [];
    this.#waitingBytes = 0;
  }
}
