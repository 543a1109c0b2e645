// The variants of a build (and of a refresh that renders everything) made from a worker thread.
// zlib compresses in the thread pool either way; what moves is the JavaScript around it and the
// buffers it allocates. On the build's thread, at a million stations, ~1.6 GB of zlib output
// buffers (joined, then kept) was memory V8 counts as external: it started a marking of the whole
// ~2 GB heap every 64 MB of it (allocating them took ~19 s of that thread under the profiler,
// markings included). A worker's heap is small, and the variants come back in shared memory,
// which V8 does not count (a refresh's), or are written as siblings by the worker itself (a
// build's): shared memory dropped stays until a collection comes, which a writing thread rarely
// causes.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { fileOf } from "../routes/file-of.js";
import { placesOf } from "../shared-places.js";
import {
  type SiblingSizes,
  type SiblingsSink,
  sizesOf,
  writeSiblingFiles,
} from "../tree/siblings.js";
import {
  type CompressionBudget,
  type CompressOptions,
  compressBody,
  compressEach,
  compressRelease,
  KeptPieces,
  type Levels,
  type ListJoins,
} from "./compress.js";
import type { ListLayout } from "./list-layout.js";
import type { Release, ReleaseFile, Variants } from "./release.js";
import { sizeOf } from "./zlib-input.js";

// Compiled beside this module; absent when running from the TypeScript sources (tests).
const WORKER = new URL("./compress-worker.js", import.meta.url);

/**
 * A body to compress: its chunks as places in shared memory (see placesOf) and the levels; with
 * `siblings`, the files on disk whose `.gz`/`.br` siblings the worker writes itself. With `keep`,
 * a contract's list compressed as pieces, kept under that key; with `join`, no body: a list of all
 * of `size` bytes made of the pieces kept under `keys` (see ListJoins).
 */
export interface CompressionJob {
  id: number;
  memory: SharedArrayBuffer[];
  places: Float64Array;
  /** Absent for a join, which compresses nothing. */
  levels?: Levels;
  siblings?: string[];
  keep?: string;
  /** With `keep`: the levels of the pieces, when not `levels` (see KeptPieces.compress). */
  pieceLevels?: Levels;
  join?: { keys: readonly string[]; size: number };
}

/** What a job is asked to do besides compressing its body whole. */
type JobKind = Pick<CompressionJob, "keep" | "pieceLevels" | "join">;

/** The variants in shared memory, or the sizes of the siblings written, or what went wrong. */
export type CompressionReply =
  | { id: number; buffer: SharedArrayBuffer; start: number; gzipSize: number; brSize: number }
  | { id: number; buffer?: undefined; gzipSize: number; brSize: number }
  | { id: number; error: string; code?: string; path?: string; syscall?: string };

type Done = Exclude<CompressionReply, { error: string }>;

interface Pending {
  resolve(reply: Done): void;
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
  compress = async (body: readonly Uint8Array[], levels: Levels): Promise<Variants> => {
    const reply = await this.#send(body, levels);
    if (!reply.buffer) throw new Error("bug: the compression worker sent no variants");
    const { buffer, start, gzipSize, brSize } = reply;
    return {
      gzip: Buffer.from(buffer, start, gzipSize),
      br: Buffer.from(buffer, start + gzipSize, brSize),
    };
  };

  /**
   * Compresses `body` and writes its variants beside each of `files` (paths on disk) from the
   * worker: they never come to this thread, which would hold them until a collection came.
   */
  writeSiblings = async (
    body: readonly Uint8Array[],
    levels: Levels,
    files: string[],
    kind: JobKind = {},
  ): Promise<SiblingSizes> => {
    const { gzipSize, brSize } = await this.#send(body, levels, files, kind);
    return { gzip: gzipSize, br: brSize };
  };

  /**
   * writeSiblings for a list of all made of contracts' pieces kept in the worker (sent with
   * `keep` before): nothing is compressed, nor sent.
   */
  writeJoinedSiblings = async (
    keys: readonly string[],
    size: number,
    files: string[],
  ): Promise<SiblingSizes> => {
    const { gzipSize, brSize } = await this.#send([], undefined, files, { join: { keys, size } });
    return { gzip: gzipSize, br: brSize };
  };

  /** Ends the worker; bodies still out, and any sent after, are refused. */
  async stop(): Promise<void> {
    this.#ended ??= new Error("the compression worker was stopped");
    await this.#worker.terminate();
    this.#failAll(this.#ended);
  }

  #send(
    body: readonly Uint8Array[],
    levels: Levels | undefined,
    siblings?: string[],
    kind: JobKind = {},
  ): Promise<Done> {
    const id = this.#jobs++;
    const { memory, places } = placesOf(body, true);
    const job: CompressionJob = {
      id,
      memory: memory as SharedArrayBuffer[],
      places,
      ...(levels ? { levels } : {}),
      ...(siblings ? { siblings } : {}),
      ...kind,
    };
    return new Promise<Done>((resolve, reject) => {
      if (this.#ended) return reject(this.#ended);
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage(job);
    });
  }

  #replied(reply: CompressionReply): void {
    const pending = this.#pending.get(reply.id);
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if (!pending) return;
    if ("error" in reply) pending.reject(errorOf(reply));
    else pending.resolve(reply);
  }

  #failAll(error: Error): void {
    this.#ended ??= error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}

/** The worker's error as this thread's: a system error (a full disk) keeps what says where. */
function errorOf({ error, code, path, syscall }: Extract<CompressionReply, { error: string }>) {
  if (!code) return new Error(`compressing a file: ${error}`);
  return Object.assign(new Error(error), { code, path, syscall });
}

/** compressRelease with its bodies compressed from a worker thread, started and ended with it. */
export function compressReleaseOffThread(
  release: Release,
  options: Omit<CompressOptions, "compress">,
): Promise<Release> {
  return withWorker((worker) =>
    compressRelease(release, { ...options, ...(worker ? { compress: worker.compress } : {}) }),
  );
}

/**
 * The `.gz`/`.br` siblings of every file worth compressing, made and written under `sink.root` by
 * a worker thread (by this one when the compiled worker is not there), each told to the sink.
 * `layouts`: how the lists of all stations are made of their contracts' (see ListJoins).
 */
export function writeSiblingsOffThread(
  files: ReadonlyMap<string, ReleaseFile>,
  budget: CompressionBudget,
  sink: SiblingsSink,
  layouts: readonly ListLayout[] = [],
): Promise<void> {
  const onDisk = (path: string) => join(sink.root, fileOf(path));
  const written = (paths: string[], variants: Variants): SiblingSizes => {
    for (const path of paths) writeSiblingFiles(onDisk(path), variants);
    return sizesOf(variants);
  };
  return withWorker((worker) =>
    compressEach(
      files,
      budget,
      worker
        ? (body, levels, paths) => worker.writeSiblings(body, levels, paths.map(onDisk))
        : async (body, levels, paths) => written(paths, await compressBody(body, levels)),
      (path, _, sizes) => sink.wrote(path, sizes),
      sink.stop,
      worker
        ? {
            layouts,
            pieces: (body, levels, paths, key, pieceLevels) =>
              worker.writeSiblings(body, levels, paths.map(onDisk), { keep: key, pieceLevels }),
            join: (keys, size, paths) => worker.writeJoinedSiblings(keys, size, paths.map(onDisk)),
          }
        : joinsHere(layouts, written),
    ),
  );
}

/** ListJoins in this thread, the pieces kept here. */
function joinsHere(
  layouts: readonly ListLayout[],
  written: (paths: string[], variants: Variants) => SiblingSizes,
): ListJoins<SiblingSizes> {
  const kept = new KeptPieces();
  return {
    layouts,
    pieces: async (body, levels, paths, key, pieceLevels) =>
      written(paths, await kept.compress(body, sizeOf(body), levels, key, pieceLevels)),
    join: async (keys, size, paths) => written(paths, kept.join(keys, size)),
  };
}

async function withWorker<T>(work: (worker: CompressionWorker | null) => Promise<T>): Promise<T> {
  const worker = CompressionWorker.start();
  try {
    return await work(worker);
  } finally {
    await worker?.stop();
  }
}
