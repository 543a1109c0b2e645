// Writes small files from a worker thread: their system calls (open, write, close: ~15 µs a file
// on tmpfs, 2 million files at a million stations) run on the other core while this one renders.
import { Worker } from "node:worker_threads";
import { placesOf } from "../shared-places.js";

// The worker needs node:fs alone: given as text, it runs the same from src/ (tests) and dist/.
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const { mkdirSync, writeFileSync } = require("node:fs");
const { dirname, join } = require("node:path");
const folders = new Set();
let failed = false;
parentPort.on("message", ({ id, names, memory, places }) => {
  if (failed) return parentPort.postMessage({ id });
  let name;
  try {
    for (let index = 0; index < names.length; index++) {
      name = join(workerData.root, names[index]);
      const folder = dirname(name);
      if (!folders.has(folder)) {
        mkdirSync(folder, { recursive: true });
        folders.add(folder);
      }
      const at = 3 * index;
      const start = places[at + 1];
      writeFileSync(name, new Uint8Array(memory[places[at]], start, places[at + 2] - start));
    }
    parentPort.postMessage({ id });
  } catch (error) {
    failed = true;
    const { message, code, syscall } = error;
    parentPort.postMessage({ id, error: { message, code, syscall, path: error.path ?? name } });
  }
});
`;

// A batch is one message. Bytes in shared memory go as they are, so every batch of them is sent at
// once: the worker then needs nothing of this thread, which may render for minutes without
// looking at its messages (a million stations' static answers). Other bytes are copied, and only
// a few batches of those are in flight, enough to keep the worker busy without holding much.
const BATCH_FILES = 2048;
const IN_FLIGHT_BYTES = 32 << 20;

/** A file to write: its name under the root, and its bytes. */
export type FileToWrite = readonly [name: string, body: Uint8Array];

/** Files to write under `root`, by their names there; nothing is written outside it. */
export class BackgroundWriter {
  readonly #root: string;
  #worker: Worker | undefined;
  // Read as batches are sent, never copied whole: at a million stations a queue of 2 million
  // entries and their names would hold ~300 MB more at the build's peak.
  readonly #sources: Iterator<FileToWrite>[] = [];
  #batches = 0;
  #inFlight = new Map<number, number>();
  #inFlightBytes = 0;
  #failure: Error | undefined;
  #drained: (() => void) | undefined;

  constructor(root: string) {
    this.#root = root;
  }

  /** Writes these files, read from `files` as the worker takes them: their bytes must not change. */
  writeAll(files: Iterable<FileToWrite>): void {
    this.#sources.push(files[Symbol.iterator]());
    this.#send();
  }

  /** Resolves once every queued file is on disk; rejects with the first write's error. */
  async finished(): Promise<void> {
    this.#send();
    if (this.#inFlight.size > 0)
      await new Promise<void>((resolve) => {
        this.#drained = resolve;
      });
    await this.stop();
    if (this.#failure) throw this.#failure;
  }

  /** Stops the worker, whatever it was doing: nothing is written after this resolves. */
  async stop(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker) await worker.terminate();
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(WORKER, { eval: true, workerData: { root: this.#root } });
    worker.on("message", (reply: { id: number; error?: NodeJS.ErrnoException }) =>
      this.#acknowledged(reply),
    );
    worker.on("error", (error) => this.#crashed(error));
    // Kept referenced: while its answers are awaited, it is all that keeps the process running.
    this.#worker = worker;
    return worker;
  }

  #send(): void {
    while (this.#failure === undefined && this.#inFlightBytes < IN_FLIGHT_BYTES) {
      const batch = this.#take();
      if (batch.length === 0) return;
      // The bodies not in shared memory are copied into one buffer, moved to the worker.
      const { memory, places, copied } = placesOf(
        batch.map(([, body]) => body),
        false,
      );
      const id = this.#batches++;
      this.#inFlight.set(id, copied);
      this.#inFlightBytes += copied;
      const names = batch.map(([name]) => name);
      const moved = memory.filter((buffer) => buffer instanceof ArrayBuffer);
      this.#start().postMessage({ id, names, memory, places }, moved);
    }
  }

  /** The next files to send, BATCH_FILES at most; none when every source is read. */
  #take(): FileToWrite[] {
    const batch: FileToWrite[] = [];
    while (batch.length < BATCH_FILES && this.#sources.length > 0) {
      const next = (this.#sources[0] as Iterator<FileToWrite>).next();
      if (next.done) this.#sources.shift();
      else batch.push(next.value);
    }
    return batch;
  }

  #acknowledged({ id, error }: { id: number; error?: NodeJS.ErrnoException }): void {
    this.#inFlightBytes -= this.#inFlight.get(id) ?? 0;
    this.#inFlight.delete(id);
    // Rebuilt here with its code, syscall and path: treeWriteError says what happened and where.
    if (error) this.#failure ??= Object.assign(new Error(error.message), error);
    this.#send();
    if (this.#inFlight.size === 0) this.#drained?.();
  }

  /** The worker died (a bug, or out of memory): nothing in flight will be answered. */
  #crashed(error: Error): void {
    this.#failure ??= error;
    this.#inFlight.clear();
    this.#inFlightBytes = 0;
    this.#drained?.();
  }
}
