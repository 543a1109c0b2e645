// Precompressed variants: gzip and brotli bytes made once per file, off the main thread, before a release is served.
// Deterministic (fixed gzip header) so the same bytes can be written as `.gz`/`.br` siblings and uploaded.
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { CSV_TYPE, JSON_TYPE, type Release, type ReleaseFile, type Variants } from "./release.js";

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Below this an answer fits in one TCP segment (MSS ~1460 B) with its headers whether compressed
 * or not, so compressing saves no round trip, only bytes nobody waits for; it also spares
 * compressing every single-station answer (~670 B) at each refresh.
 */
export const MIN_COMPRESSED_SIZE = 1024;

/** Types that compress well; the zip bundle is already compressed. */
const COMPRESSIBLE = new Set([JSON_TYPE, CSV_TYPE]);

/**
 * How much time compression may take. `build`: files are made once and kept (static answers for an
 * hour, the tree until the next refresh), so high levels pay off. `refresh`: the dynamic answers
 * are compressed again every minute and must be ready well inside it, before the swap.
 */
export type CompressionBudget = "build" | "refresh";

interface Levels {
  gzip: number;
  brotli: number;
}

// Chosen from measurements of the 100,000-station network on a 2-core machine (README, Benchmark):
// brotli 9–11 run at 0.5–3 MB/s, far too slow for any of these; brotli 1 and gzip 1 do ~100 and
// ~70 MB/s and still shrink a station list to under 10%, which a refresh needs for its ~140 MB of
// lists every minute. Static answers are compressed once per source change, so they get more.
// A refresh uses level 1 at every size: its answers live a minute, and the GBFS station_status of
// each contract (~100 MB in all at 100,000 stations, mostly under 1 MB each) took ~2.5 s of CPU a
// minute at gzip 6 / brotli 4 (78 and 96 MB/s) against ~0.45 s at level 1 (368 and 679 MB/s),
// for 0.056 instead of 0.040 of the size (gzip) and 0.048 instead of 0.042 (brotli).
const BIG_FILE = 1 << 20;
const LEVELS: Record<"static" | CompressionBudget, { small: Levels; big: Levels }> = {
  static: { small: { gzip: 9, brotli: 6 }, big: { gzip: 6, brotli: 5 } },
  build: { small: { gzip: 6, brotli: 5 }, big: { gzip: 4, brotli: 4 } },
  refresh: { small: { gzip: 1, brotli: 1 }, big: { gzip: 1, brotli: 1 } },
};

function levelsFor(file: ReleaseFile, budget: CompressionBudget): Levels {
  const levels = LEVELS[file.freshness === "static" ? "static" : budget];
  return file.size > BIG_FILE ? levels.big : levels.small;
}

export function worthCompressing(file: ReleaseFile): boolean {
  return file.size >= MIN_COMPRESSED_SIZE && COMPRESSIBLE.has(file.contentType);
}

// gzip header bytes (RFC 1952 §2.3): MTIME at 4–7 (zlib writes 0: no time), OS at 9, where zlib
// writes the platform's code; pinned to 255 ("unknown") so the bytes are the same wherever made.
const GZIP_OS = 9;
const OS_UNKNOWN = 255;
// Fewer round trips between the thread pool and the main thread for big bodies.
const CHUNK = 1 << 20;

/** Both variants of one body, compressed in the thread pool. */
export async function compressBody(body: readonly Uint8Array[], levels: Levels): Promise<Variants> {
  const raw = body.length === 1 ? (body[0] as Uint8Array) : Buffer.concat(body);
  const [gzipped, br] = await Promise.all([
    gzipAsync(raw, { level: levels.gzip, chunkSize: CHUNK }),
    brotliAsync(raw, {
      chunkSize: CHUNK,
      params: {
        [constants.BROTLI_PARAM_QUALITY]: levels.brotli,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.byteLength,
      },
    }),
  ]);
  gzipped[GZIP_OS] = OS_UNKNOWN;
  return { gzip: gzipped, br };
}

export async function compressFile(
  file: ReleaseFile,
  budget: CompressionBudget,
): Promise<ReleaseFile> {
  if (file.variants || !worthCompressing(file)) return file;
  return { ...file, variants: await compressBody(file.body, levelsFor(file, budget)) };
}

export interface CompressOptions {
  budget: CompressionBudget;
  /** The release being replaced: a file with the same bytes there keeps its variants (and its object). */
  previous?: Release;
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
  const todo: [string, ReleaseFile][] = [];
  for (const [path, file] of reused.files) {
    if (!file.variants && worthCompressing(file)) todo.push([path, file]);
  }
  // Biggest first, so that the longest job does not start last.
  todo.sort(([, a], [, b]) => b.size - a.size);
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const [path, file] = todo[next++] as [string, ReleaseFile];
      files.set(path, await compressFile(file, options.budget));
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return { ...release, files };
}
