// Precompressed variants: gzip and brotli bytes made once per file, off the main thread, before a release is served.
// Deterministic (fixed gzip header) so the same bytes can be written as `.gz`/`.br` siblings and uploaded.
import { promisify } from "node:util";
import {
  type BrotliOptions,
  brotliCompress,
  brotliCompressSync,
  constants,
  crc32,
  createBrotliCompress,
  createDeflateRaw,
  createGzip,
  deflateRawSync,
  gzip,
  gzipSync,
  type ZlibOptions,
} from "node:zlib";
import {
  CSV_TYPE,
  HTML_TYPE,
  JSON_TYPE,
  SCRIPT_TYPE,
  STYLE_TYPE,
  TEXT_TYPE,
} from "../routes/content-types.js";
import { withFields } from "../with-fields.js";
import { brotliOfList, brotliPiece, brotliPieceStream, joinable } from "./brotli-list.js";
import { crc32Combine } from "./crc32-combine.js";
import type { ListLayout } from "./list-layout.js";
import type { Release, ReleaseFile, Variants } from "./release.js";
import {
  CHUNK,
  joinedNow,
  sharedConcat,
  sizeOf,
  throughStreams,
  type Window,
  withJoined,
} from "./zlib-input.js";

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Below this an answer fits in one TCP segment (MSS ~1460 B) with its headers whether compressed
 * or not, so compressing saves no round trip, only bytes nobody waits for; it also spares
 * compressing every single-station answer (~670 B) at each refresh.
 */
export const MIN_COMPRESSED_SIZE = 1024;

/**
 * Text compresses well: the data, and the portal's page (one row per station) and the bundled
 * Swagger UI (~1.5 MB of script). The zip bundle is already compressed.
 */
const COMPRESSIBLE = new Set([JSON_TYPE, CSV_TYPE, HTML_TYPE, SCRIPT_TYPE, STYLE_TYPE, TEXT_TYPE]);

/**
 * How much time compression may take. `build`: files are made once and kept (static answers for an
 * hour, the tree until the next refresh), so high levels pay off. `refresh`: the dynamic answers
 * are compressed again every minute and must be ready well inside it, before the swap.
 */
export type CompressionBudget = "build" | "refresh";

export interface Levels {
  gzip: number;
  brotli: number;
}

// Chosen from measurements of the synthetic networks on a 2-core machine (docs/serving.md,
// Precompressed variants), in MB/s of one core, and the compressed share: on the lists of stations
// (dynamic, repetitive) gzip 1 ~300-430 (0.08-0.09), gzip 4 ~175 (0.075), gzip 6 ~130 (0.06);
// brotli 1 ~330-590 (0.07), brotli 4 ~90-180, brotli 5 ~50-100; on the static answers of a contract
// (names, addresses: 64 KiB-1 MiB) gzip 1 and 4 ~70 (0.23, 0.21), gzip 9 ~27, brotli 1 ~150 (0.22),
// brotli 6 ~40 (0.18). A million stations make ~3 GB of lists and ~0.75 GB of static answers: at
// levels 4-6 that alone is a minute of both cores, at these ~30 core-seconds. Small answers (the
// contracts, a station's parks, the OpenAPI document) are a few MB in all and fetched most often:
// they keep high levels. A refresh compresses the changed lists again every minute, so a build's
// lower levels last until then. A refresh uses level 1 at every size: its answers live a minute,
// and the GBFS station_status of each contract (~100 MB in all at 100,000 stations, mostly under 1
// MB each) took ~2.5 s of CPU a minute at gzip 6 / brotli 4 (78 and 96 MB/s) against ~0.45 s at
// level 1 (368 and 679 MB/s), for 0.056 instead of 0.040 of the size (gzip) and 0.048 instead of
// 0.042 (brotli).
const LEVELS: Record<
  "static" | CompressionBudget,
  { small: Levels; big: Levels; bigOver: number }
> = {
  static: { small: { gzip: 9, brotli: 6 }, big: { gzip: 4, brotli: 1 }, bigOver: 64 << 10 },
  build: { small: { gzip: 6, brotli: 5 }, big: { gzip: 1, brotli: 1 }, bigOver: 64 << 10 },
  refresh: { small: { gzip: 1, brotli: 1 }, big: { gzip: 1, brotli: 1 }, bigOver: 1 << 20 },
};

// Scripts and styles (the API reference's Swagger UI, ~1.5 MB) are the same few files whatever the
// network: at the big files' brotli 1 the bundle came out 8% bigger than its gzip, and every
// browser takes brotli. Their high levels cost ~0.09 CPU-s a build (0.12 against 0.03).
const ASSETS = new Set([SCRIPT_TYPE, STYLE_TYPE]);

export function levelsFor(file: ReleaseFile, budget: CompressionBudget): Levels {
  if (ASSETS.has(file.contentType)) return LEVELS.static.small;
  const levels = LEVELS[file.freshness === "static" ? "static" : budget];
  return file.size > levels.bigOver ? levels.big : levels.small;
}

export function worthCompressing(file: ReleaseFile): boolean {
  return file.size >= MIN_COMPRESSED_SIZE && compressible(file.contentType);
}

/** Whether answers of this type get variants (those of MIN_COMPRESSED_SIZE or more). */
export const compressible = (contentType: string): boolean => COMPRESSIBLE.has(contentType);

// gzip header bytes (RFC 1952 §2.3): MTIME at 4–7 (zlib writes 0: no time), OS at 9, where zlib
// writes the platform's code; pinned to 255 ("unknown") so the bytes are the same wherever made.
const GZIP_OS = 9;
const OS_UNKNOWN = 255;
// zlib's own default size of an output buffer.
const MIN_OUTPUT_CHUNK = 16 << 10;
const MAX_OUTPUT_CHUNK = 64 << 10;

/**
 * The size of the buffers zlib writes a body's output into: about what a list compresses to at
 * level 1 (an eighth), up to 64 KiB. zlib allocates one as it starts and another each time one
 * fills, and a one-shot result is a view of its buffer: memory V8 counts as external, and answers
 * with a marking of the whole heap every 64 MB of it. At CHUNK each, the ~250 bodies of a cron
 * refresh allocated ~250 MB a minute for ~20 MB of output. A streamed body's output is joined into
 * shared memory (sharedConcat), so its buffers are only garbage: those of a server's ~1.5 MB lists
 * were 256 KiB each for ~130 KB of output. The bytes made do not depend on it.
 */
function outputChunk(size: number): number {
  let chunk = MIN_OUTPUT_CHUNK;
  while (chunk < MAX_OUTPUT_CHUNK && chunk * 8 < size) chunk *= 2;
  return chunk;
}

/**
 * Both variants of one body, compressed in the thread pool. A big body (a list of a million
 * stations is ~700 MB in ~1M chunks) is never joined: it goes through the streams in pieces of
 * exactly CHUNK bytes, so the bytes made depend on the body's bytes alone, not on its chunks.
 */
export function compressBody(body: readonly Uint8Array[], levels: Levels): Promise<Variants> {
  return compressChunks(body, sizeOf(body), levels);
}

/**
 * compressBody of a body of `size` bytes whose chunks are read once, in order: a worker makes each
 * view of shared memory as it is read (see compress-worker.ts).
 */
export async function compressChunks(
  body: Iterable<Uint8Array>,
  size: number,
  levels: Levels,
): Promise<Variants> {
  const brotli = brotliOptions(size, levels.brotli);
  const gzipOptions = { level: levels.gzip, chunkSize: outputChunk(size) };
  let gzipped: Buffer;
  let br: Buffer;
  if (size > CHUNK)
    [gzipped, br] = (await throughStreams(body, [
      createGzip(gzipOptions),
      createBrotliCompress(brotli),
    ])) as [Buffer, Buffer];
  else
    [gzipped, br] = await withJoined([...body], (whole) =>
      Promise.all([gzipAsync(whole, gzipOptions), brotliAsync(whole, brotli)]),
    );
  gzipped[GZIP_OS] = OS_UNKNOWN;
  return { gzip: gzipped, br };
}

/** The biggest body compressHere takes. */
export const SMALL_BODY = 256 << 10;

/**
 * compressBody's variants of a small body (up to SMALL_BODY bytes), the same bytes, made at once
 * in this thread. Each body the thread pool compresses costs ~0.2 ms of CPU beyond the
 * compression itself (its streams, the pool's round trips and wake-ups, its compressors' state
 * allocated and zeroed), ~0.07 ms here: a cron refresh of 100,000 stations in 2,000 contracts has
 * ~8,000 lists and feeds of a few KB to compress each minute (see docs/benchmark.md).
 */
export function compressHere(body: readonly Uint8Array[], levels: Levels): Variants {
  const size = sizeOf(body);
  if (size > SMALL_BODY) throw new Error(`bug: a body of ${size} bytes compressed in this thread`);
  const whole = joinedNow(body);
  const gzipped = gzipSync(whole, { level: levels.gzip, chunkSize: outputChunk(size) });
  gzipped[GZIP_OS] = OS_UNKNOWN;
  return { gzip: gzipped, br: brotliCompressSync(whole, brotliOptions(size, levels.brotli)) };
}

const brotliOptions = (size: number, quality: number): BrotliOptions => ({
  chunkSize: outputChunk(size),
  params: {
    [constants.BROTLI_PARAM_QUALITY]: quality,
    [constants.BROTLI_PARAM_SIZE_HINT]: size,
  },
});

/**
 * A contract's list `[…]`: its items (the bytes between its brackets) compressed once as pieces
 * that its own variants and those of the list of all stations (its contracts' lists joined) are
 * assembled from, by gzipOfList and brotliOfList, from one pass over its bytes. The gzip piece is
 * raw deflate ending on a full flush (byte-aligned, no final block, nothing referred to before
 * it), its CRC-32 taken from what is handed to deflate (a piece of CHUNK bytes at a time), not
 * chunk by chunk: a server's contract list is its members and their commas, ~4,000 chunks, and a
 * call per chunk took ~0.4 s of its thread a minute at 100,000 stations. `levels.brotli` must be
 * joinable.
 */
export function contractListPieces(
  body: readonly Uint8Array[],
  levels: Levels,
): Promise<ListPieces> {
  return listPiecesOfChunks(body, sizeOf(body), levels);
}

/**
 * contractListPieces of a body of `size` bytes whose chunks are read once, in order (see
 * compressChunks).
 */
export async function listPiecesOfChunks(
  body: Iterable<Uint8Array>,
  size: number,
  levels: Levels,
): Promise<ListPieces> {
  const items = new PartMaker(size - 2, levels.gzip);
  const br = brotliPieceStream(brotliOptions(size - 2, levels.brotli));
  const [brotli, deflated] = (await throughStreams(body, [
    { stream: br, from: 1, to: size - 1 },
    items.window(1, size - 1),
  ])) as [Buffer, Buffer];
  return { gzip: items.made(deflated), br: brotliPiece(brotli) };
}

/**
 * The variants of a list of `size` bytes made of these parts, each compressed once as pieces: its
 * brackets, its parts and the commas between them, or it is not that list.
 */
export function listVariants(parts: readonly ListPieces[], size: number): Variants {
  const joined = parts.reduce(
    (sum, part) => sum + part.gzip.size,
    2 + Math.max(0, parts.length - 1),
  );
  if (joined !== size)
    throw new Error(`bug: a list of ${size} bytes joined of parts making ${joined}`);
  return {
    gzip: gzipOfList(
      parts.map((part) => part.gzip),
      size,
    ),
    br: brotliOfList(parts.map((part) => part.br)),
  };
}

/**
 * Contracts' lists compressed as pieces and kept, for the lists of all stations joined of them
 * (see ListJoins): until joined (a contract's list is in one list of all).
 */
export class KeptPieces {
  readonly #kept = new Map<string, ListPieces>();

  /**
   * A contract's list's variants at `levels`, its pieces (at `pieceLevels`, its list of all's)
   * kept under `key`: made of them when the levels are the same, else compressed whole besides
   * (a small list, compressed harder: `body` is then read twice).
   */
  async compress(
    body: Iterable<Uint8Array>,
    size: number,
    levels: Levels,
    key: string,
    pieceLevels: Levels = levels,
  ): Promise<Variants> {
    const pieces = await listPiecesOfChunks(body, size, pieceLevels);
    this.#kept.set(key, pieces);
    if (levels.gzip === pieceLevels.gzip && levels.brotli === pieceLevels.brotli)
      return listVariants([pieces], size);
    return compressChunks(body, size, levels);
  }

  /**
   * The variants of a list of all of `size` bytes, made of the pieces kept under `keys` (copied:
   * they are let go).
   */
  join(keys: readonly string[], size: number): Variants {
    const parts = keys.map((key) => {
      const pieces = this.#kept.get(key);
      if (!pieces) throw new Error(`bug: no pieces kept for a list (${key})`);
      return pieces;
    });
    const variants = listVariants(parts, size);
    for (const key of keys) this.#kept.delete(key);
    return variants;
  }
}

/** A list's part compressed as pieces: see contractListPieces. */
export interface ListPieces {
  gzip: ListPart;
  br: Buffer;
}

/** A ListPart of `size` bytes, deflated as it streams through a Window. */
class PartMaker {
  #crc = 0;
  readonly #options: ZlibOptions;

  constructor(
    readonly size: number,
    level: number,
  ) {
    this.#options = { level, finishFlush: constants.Z_FULL_FLUSH, chunkSize: outputChunk(size) };
  }

  /** Deflate's bytes do not depend on where its input is cut: streamed, the same as in one call. */
  window(from: number, to: number): Window {
    const seen = (bytes: Uint8Array) => {
      this.#crc = crc32(bytes, this.#crc);
    };
    return { stream: createDeflateRaw(this.#options), from, to, seen };
  }

  made(piece: Buffer): ListPart {
    return { piece, crc: this.#crc, size: this.size };
  }
}

// `]`, deflated as the final block of a list's stream; `[` and `,` as pieces.
const LIST_OPEN = deflateRawSync("[", { level: 1, finishFlush: constants.Z_FULL_FLUSH });
const LIST_COMMA = deflateRawSync(",", { level: 1, finishFlush: constants.Z_FULL_FLUSH });
const LIST_CLOSE = deflateRawSync("]", { level: 1 });
// RFC 1952: magic, deflate, no flags, no time, XFL 4 (fastest, as zlib writes at level 1), OS unknown.
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 4, OS_UNKNOWN]);

/** A part of a list: its bytes deflated (see contractListPieces), their CRC-32 and size. */
export interface ListPart {
  piece: Buffer;
  crc: number;
  size: number;
}

const CRC_OPEN = crc32("[");
const CRC_COMMA = crc32(",");
const CRC_CLOSE = crc32("]");

/**
 * The gzip variant of a list `[p1,p2,…]` of `size` bytes from its parts (each part's bytes held
 * between the commas: an item, or a contract's list without its brackets), in order: no byte
 * deflated again, and none read for the checksum, made of the parts' own.
 */
export function gzipOfList(parts: readonly ListPart[], size: number): Buffer {
  let crc = CRC_OPEN;
  const pieces: Uint8Array[] = [GZIP_HEADER, LIST_OPEN];
  parts.forEach((part, index) => {
    if (index > 0) {
      pieces.push(LIST_COMMA);
      crc = crc32Combine(crc, CRC_COMMA, 1);
    }
    pieces.push(part.piece);
    crc = crc32Combine(crc, part.crc, part.size);
  });
  crc = crc32Combine(crc, CRC_CLOSE, 1);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc, 0);
  trailer.writeUInt32LE(size % 2 ** 32, 4);
  pieces.push(LIST_CLOSE, trailer);
  return sharedConcat(pieces);
}

export interface CompressOptions {
  budget: CompressionBudget;
  /** The release being replaced: a file with the same bytes there keeps its variants (and its object). */
  previous?: Release;
  /** What makes a body's variants: compressBody unless given (CompressionWorker's, in a build). */
  compress?: (body: readonly Uint8Array[], levels: Levels) => Promise<Variants>;
}

// The thread pool has 4 threads by default; more in flight only holds more joined bodies in memory.
const IN_FLIGHT = 4;

/**
 * The release with the files whose bytes did not change taking their variants from `previous`, at
 * once (no compression): what a refresh can swap in before the changed files are compressed.
 */
export function reuseVariants(release: Release, previous: Release): Release {
  const files = new Map(release.files);
  for (const [path, file] of release.files) {
    if (file.variants || !worthCompressing(file)) continue;
    const before = previous.files.get(path);
    if (before?.variants && before.etag === file.etag) files.set(path, before);
  }
  return { ...release, files };
}

/** The release with every file worth it carrying its variants; resolves when all are ready. */
export async function compressRelease(
  release: Release,
  options: CompressOptions,
): Promise<Release> {
  const reused = options.previous ? reuseVariants(release, options.previous) : release;
  const files = new Map(reused.files);
  await compressEach(
    reused.files,
    options.budget,
    options.compress ?? compressBody,
    (path, file, variants) => files.set(path, withFields(file, { variants })),
  );
  return { ...release, files };
}

/**
 * How compressEach makes each list of all stations of its contracts' lists, each compressed once
 * as pieces (contractListPieces), when they all are compressed at joinable levels: at a million
 * stations ~1 GB of lists a build does not compress again.
 */
export interface ListJoins<Result> {
  layouts: readonly ListLayout[];
  /**
   * compress's, for a contract's list (KeptPieces.compress): its pieces made at `pieceLevels` and
   * kept under `key`; `paths` none for a list too small to have variants of its own.
   */
  pieces: (
    body: readonly Uint8Array[],
    levels: Levels,
    paths: string[],
    key: string,
    pieceLevels: Levels,
  ) => Promise<Result>;
  /** compress's, for a list of all of `size` bytes: made of the pieces kept under `keys`. */
  join: (keys: readonly string[], size: number, paths: string[]) => Promise<Result>;
}

/**
 * Compresses the body of every file worth it that has no variants, biggest first, with `compress`
 * (given the paths that have that body: equal bodies are compressed once, as GBFS serves each v2
 * feed at two paths), and hands what it gives back to `made` for each of those files. Keeps
 * nothing (`joins` keeps its pieces). With `joins`, each list of all stations is joined of its contracts' pieces as soon as
 * they are made (by the same worker loop, after the last of them). Settles once
 * all are done, or after the first failure or once `stop` aborts: nothing more is started or
 * handed over then, and what is under way finishes first.
 */
export async function compressEach<Result>(
  files: ReadonlyMap<string, ReleaseFile>,
  budget: CompressionBudget,
  compress: (body: readonly Uint8Array[], levels: Levels, paths: string[]) => Promise<Result>,
  made: (path: string, file: ReleaseFile, result: Result) => void,
  stop?: AbortSignal,
  joins?: ListJoins<Result>,
): Promise<void> {
  const tasks = new Map<string, CompressionTask>();
  const keyOf = new Map<string, string>();
  for (const [path, file] of files) {
    if (file.variants || !worthCompressing(file)) continue;
    const levels = levelsFor(file, budget);
    const key = `${file.etag} ${levels.gzip} ${levels.brotli}`;
    keyOf.set(path, key);
    const task = tasks.get(key);
    if (task) task.files.push([path, file]);
    else tasks.set(key, { body: file.body, size: file.size, levels, files: [[path, file]] });
  }
  const joined = joins ? joinedTasks(joins.layouts, files, tasks, keyOf) : [];
  // Biggest first, so that the longest task does not start last.
  const todo = [...tasks.values()].sort((a, b) => b.size - a.size);
  let next = 0;
  let failed = false;
  const going = () => !failed && !stop?.aborted;
  const run = async (task: CompressionTask, result: Promise<Result>) => {
    try {
      const done = await result;
      if (going()) for (const [path, file] of task.files) made(path, file, done);
    } catch (cause) {
      failed = true;
      throw cause;
    }
  };
  const joinOnceMade = async (kept: string) => {
    for (const join of joined) {
      join.waiting.delete(kept);
      if (join.waiting.size > 0 || join.started || !joins || !going()) continue;
      join.started = true;
      const paths = join.task.files.map(([path]) => path);
      await run(join.task, joins.join(join.keys, join.task.size, paths));
    }
  };
  const worker = async () => {
    while (next < todo.length && going()) {
      const task = todo[next++] as CompressionTask;
      const paths = task.files.map(([path]) => path);
      if (task.pieces && joins) {
        const { key, levels } = task.pieces;
        await run(task, joins.pieces(task.body, task.levels, paths, key, levels));
        await joinOnceMade(key);
      } else await run(task, compress(task.body, task.levels, paths));
    }
  };
  // A failure is said once every task under way is done: no write of theirs lands in a folder
  // being removed because of it.
  const ends = await Promise.allSettled(Array.from({ length: IN_FLIGHT }, worker));
  for (const end of ends) if (end.status === "rejected") throw end.reason;
  if (going() && joined.some((join) => !join.started))
    throw new Error("bug: a list of all stations was never joined of its contracts' pieces");
}

/** A list of all stations to be joined of its contracts' pieces, and the pieces not yet made. */
interface Join {
  task: CompressionTask;
  keys: string[];
  waiting: Set<string>;
  started: boolean;
}

/**
 * The lists of all stations that can be made of their contracts' pieces, taken out of `tasks`:
 * their contracts' tasks then keep their pieces, made at the list of all's levels (which must be
 * joinable), a list too small for variants of its own getting a task for its pieces alone. Not
 * when a list of all has a contract's bytes (a network of one contract), nor when a task would be
 * part of two joins (a list of all that is another's contract list, or two sharing a contract).
 */
function joinedTasks(
  layouts: readonly ListLayout[],
  files: ReadonlyMap<string, ReleaseFile>,
  tasks: Map<string, CompressionTask>,
  keyOf: ReadonlyMap<string, string>,
): Join[] {
  const joined: Join[] = [];
  const claimed = new Set<string>();
  for (const layout of layouts) {
    const allKey = keyOf.get(layout.all);
    const task = allKey === undefined ? undefined : tasks.get(allKey);
    if (!task || !joinable(task.levels.brotli) || claimed.has(allKey as string)) continue;
    const parts = layout.contracts.map((path) => partOf(path, files, tasks, keyOf, task.levels));
    const keys = parts.map((part) => part?.[0]);
    if (
      parts.length === 0 ||
      keys.includes(allKey) ||
      keys.some((key) => key === undefined || claimed.has(key))
    )
      continue;
    for (const [key, part] of parts as [string, CompressionTask][]) {
      if (!tasks.has(key)) tasks.set(key, part);
      part.pieces = { key, levels: task.levels };
    }
    tasks.delete(allKey as string);
    for (const key of [allKey as string, ...(keys as string[])]) claimed.add(key);
    joined.push({
      task,
      keys: keys as string[],
      waiting: new Set(keys as string[]),
      started: false,
    });
  }
  return joined;
}

/**
 * A contract's list's task and key: its own, or (a list without variants) one for its pieces
 * alone, at the list of all's levels; undefined when the release has no such list.
 */
function partOf(
  path: string,
  files: ReadonlyMap<string, ReleaseFile>,
  tasks: ReadonlyMap<string, CompressionTask>,
  keyOf: ReadonlyMap<string, string>,
  levels: Levels,
): [string, CompressionTask] | undefined {
  const key = keyOf.get(path);
  const task = key === undefined ? undefined : tasks.get(key);
  if (key !== undefined && task) return [key, task];
  const file = files.get(path);
  if (!file) return undefined;
  return [`${file.etag} pieces`, { body: file.body, size: file.size, levels, files: [] }];
}

/** One body to compress, and the files (paths) that have it. */
interface CompressionTask {
  body: readonly Uint8Array[];
  size: number;
  levels: Levels;
  files: [string, ReleaseFile][];
  /**
   * A contract's list a list of all is joined of: its pieces, made at the list of all's levels
   * (its own variants made of them when those are its own too), kept under `key`.
   */
  pieces?: { key: string; levels: Levels };
}
