// The manifest: which release a tree holds and each file's ETag, size and type, kept outside the served folder.
import { closeSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { pathsInOrder } from "../publish/paths-in-order.js";
import type { Release, ReleaseFile } from "../publish/release.js";
import { variantEtag } from "../publish/variant-etag.js";
import { bytesOf, fieldsOf, packColumns, unpackLeading } from "./cache-columns.js";
import { replaceFile } from "./replace-file.js";
import type { SiblingSizes } from "./siblings.js";

/** A precompressed sibling in the tree (`FILE.gz`, `FILE.br`): its own ETag and size. */
export interface VariantEntry {
  etag: string;
  size: number;
}

export interface ManifestEntry {
  etag: string;
  size: number;
  type: string;
  /** The siblings written beside the file, when it is worth compressing. */
  variants?: { gzip: VariantEntry; br: VariantEntry };
}

export interface Manifest {
  release: string;
  generatedAt: string;
  /** The public base URL the tree's answers name (see Release.baseUrl), when recorded. */
  baseUrl: string | undefined;
  /** Seconds between the tree's refreshes (see Release.refreshSeconds), when recorded. */
  refreshSeconds: number | undefined;
  /** Every URL path the tree holds (`fileOf(path)` gives the file in the tree), sorted. */
  paths: readonly string[];
  /** One path's entry; undefined when the tree does not hold it. */
  entry(path: string): ManifestEntry | undefined;
  /**
   * A path's position in `paths`, or -1. `hint`: where the caller believes it is (checked, and
   * looked up as usual when wrong).
   */
  positionOf(path: string, hint?: number): number;
  /** The ETag of the path at this position of `paths`. */
  etagAt(position: number): string | undefined;

  /** URL path → entry, made on first use: for readers that walk every answer. */
  readonly files: Readonly<Record<string, ManifestEntry>>;
}

/**
 * In memory, columns (one array per field, aligned with `paths`): a cron refresh reads and writes
 * it every minute, and 200,000 small objects cost far more to parse and build than a few long
 * arrays. A sibling's ETag is derived from its file's (`variantEtag`), so only sizes are kept.
 * Sizes are 64-bit floats (a list of millions of stations passes 2 GB; exact to 2⁵³).
 */
interface ManifestFile {
  format: typeof MANIFEST_FORMAT;
  release: string;
  generatedAt: string;
  /** Absent in the manifests of older velodata versions, and of releases made without one. */
  baseUrl?: string;
  /** Absent as baseUrl is. */
  refreshSeconds?: number;
  /** The content types, each once; `type` holds an index into it. */
  types: string[];
  paths: readonly string[];
  etags: string[];
  sizes: Float64Array;
  type: Uint8Array;
  /** The siblings' sizes; -1 when the file has no siblings. */
  gzip: Float64Array;
  br: Float64Array;
  /**
   * The paths' bytes as read, written back as they are: a cron refresh keeps every path (~10 ms
   * a minute to encode again at 100,000 stations).
   */
  pathsBytes?: Buffer;
}

/**
 * On disk, a JSON line of the other fields, the numbers' columns as their bytes (cache-columns.ts),
 * then the paths and the ETags, each as its lines' UTF-8 (`lines` says how many bytes), split
 * when read. Read and written every minute by a cron refresh (and read again in its trust test's
 * worker), as JSON it took ~75 ms to read and ~100 ms to write at 100,000 stations. URL paths are
 * percent-encoded and ETags base64url: neither holds a line break.
 */
type ManifestOnDisk = Omit<ManifestFile, "paths" | "etags" | "pathsBytes"> & {
  lines: { paths: number; etags: number };
};

/** Another format (an older velodata's) reads as no manifest: the tree is then verified whole. */
export const MANIFEST_FORMAT = 4;

/**
 * `siblings`: the sizes of siblings written for files of the release that do not carry their
 * variants (a build writes them as they are made and lets them go).
 */
export function manifestOf(
  release: Release,
  siblings: ReadonlyMap<string, SiblingSizes> = new Map(),
): Manifest {
  const paths = pathsInOrder(release.files);
  const count = paths.length;
  const file: ManifestFile = {
    format: MANIFEST_FORMAT,
    release: release.id,
    generatedAt: release.generatedAt.toISOString(),
    baseUrl: release.baseUrl, // JSON leaves it out when there is none
    refreshSeconds: release.refreshSeconds,
    types: [],
    paths,
    // Made at their length: grown entry by entry, a million stations' columns left ~280 MB of
    // garbage at the very end of a build, its peak.
    etags: new Array(count),
    sizes: new Float64Array(count),
    type: new Uint8Array(count),
    gzip: new Float64Array(count),
    br: new Float64Array(count),
  };
  for (let at = 0; at < count; at++)
    setColumns(file, at, release.files.get(paths[at] as string) as ReleaseFile);
  for (const [path, sizes] of siblings) {
    const at = sortedPosition(paths, path);
    if (at < 0) throw new Error(`bug: siblings written for ${path}, which the release lacks`);
    file.gzip[at] = sizes.gzip;
    file.br[at] = sizes.br;
  }
  return manifestFrom(file);
}

/** A changed answer of a release that keeps every path of the manifest it is patched into. */
export interface ChangedFile {
  path: string;
  file: ReleaseFile;
}

/**
 * The manifest of a release that has the same paths as `manifest` and differs from it only in
 * `changed` (a cron refresh's): its columns copied and patched, nothing sorted again. Null when a
 * changed path is not one of the manifest's.
 */
export function patchedManifest(
  manifest: Manifest,
  release: Pick<Release, "id" | "generatedAt">,
  changed: Iterable<ChangedFile>,
): Manifest | null {
  const kept = stored.get(manifest);
  if (!kept) return null;
  const before = kept.file;
  const file: ManifestFile = {
    ...before,
    release: release.id,
    generatedAt: release.generatedAt.toISOString(),
    etags: before.etags.slice(),
    sizes: before.sizes.slice(),
    type: before.type.slice(),
    gzip: before.gzip.slice(),
    br: before.br.slice(),
    types: before.types.slice(),
  };
  for (const { path, file: entry } of changed) {
    const at = manifest.positionOf(path);
    if (at < 0) return null;
    setColumns(file, at, entry);
  }
  // The index of paths is handed over only if it was made: the paths are the same.
  return manifestFrom(file, kept.made());
}

/** One answer's columns, at its path's position (a content type is added to `types` once). */
function setColumns(file: ManifestFile, at: number, entry: ReleaseFile): void {
  // A handful of content types: a look along the list costs less than a Map.
  let type = file.types.indexOf(entry.contentType);
  if (type < 0) type = file.types.push(entry.contentType) - 1;
  if (type > 255) throw new Error("bug: more than 256 content types in a manifest");
  file.etags[at] = entry.etag;
  file.sizes[at] = entry.size;
  file.type[at] = type;
  file.gzip[at] = entry.variants ? entry.variants.gzip.byteLength : -1;
  file.br[at] = entry.variants ? entry.variants.br.byteLength : -1;
}

/** Written beside and renamed over: a reader gets the old manifest or the new one, whole. */
export function writeManifest(path: string, manifest: Manifest): void {
  const file = stored.get(manifest)?.file;
  if (!file) throw new Error("bug: a manifest not made by manifestFrom");
  const { pathsBytes, paths, etags, ...columns } = file;
  const pathsText = pathsBytes
    ? { size: pathsBytes.length, pieces: [pathsBytes] }
    : joinedLines(paths);
  const etagsText = joinedLines(etags);
  const onDisk: ManifestOnDisk = {
    ...columns,
    lines: { paths: pathsText.size, etags: etagsText.size },
  };
  const packed = packColumns(onDisk);
  if (!packed) throw new Error("bug: a manifest without columns");
  const { json, columns: numbers } = packed;
  function* pieces(): Generator<string | Uint8Array> {
    yield `${json}${LINE}`;
    for (const column of numbers) yield bytesOf(column);
    yield* pathsText.pieces;
    yield* etagsText.pieces;
  }
  replaceFile(path, `${path}.tmp-${process.pid}`, pieces());
}

// Lines joined and encoded at a time: a few hundred KB a piece.
const PIECE = 8192;

/**
 * `lines` joined by line breaks, as UTF-8: its size, and its bytes made a piece at a time as they
 * are written. Made whole, a million stations' paths (~80 MB) were a string and its bytes at once,
 * at the very end of a build, its peak.
 */
function joinedLines(lines: readonly string[]): { size: number; pieces: Iterable<Buffer> } {
  let size = Math.max(0, lines.length - 1);
  for (const line of lines) size += Buffer.byteLength(line);
  function* pieces() {
    for (let at = 0; at < lines.length; at += PIECE)
      yield Buffer.from((at > 0 ? LINE : "") + lines.slice(at, at + PIECE).join(LINE));
  }
  return { size, pieces: pieces() };
}

/**
 * The manifest and its change time: a file in the tree changed after the manifest was sealed
 * (its ctime is later) was changed behind velodata's back. ctime cannot be set by `cp -p` or
 * `touch`, and both times come from the same file system clock.
 */
export function readManifest(path: string): { manifest: Manifest; sealedAt: number } | null {
  let bytes: Buffer;
  let sealedAt: number;
  try {
    sealedAt = statSync(path).ctimeMs;
    bytes = readFileSync(path);
  } catch {
    return null;
  }
  try {
    const end = bytes.indexOf(LINE);
    if (end < 0) return null;
    const head = JSON.parse(bytes.toString("utf8", 0, end)) as unknown;
    const columns = unpackLeading(head, bytes.subarray(end + 1));
    const file =
      columns &&
      columnsOf(columns.value as ManifestOnDisk | null, bytes.subarray(end + 1 + columns.size));
    return file ? { manifest: manifestFrom(file), sealedAt } : null;
  } catch {
    return null;
  }
}

/** The fields of a manifest's first line (all but its columns; the whole of an older one's). */
function headOf(path: string): { format?: unknown; baseUrl?: unknown } | null {
  const fd = openSync(path, "r");
  try {
    const chunks: Buffer[] = [];
    for (;;) {
      const chunk = Buffer.allocUnsafe(64 << 10);
      const read = readSync(fd, chunk);
      const end = chunk.subarray(0, read).indexOf(LINE);
      chunks.push(chunk.subarray(0, end < 0 ? read : end));
      if (end >= 0 || read === 0) break;
    }
    return fieldsOf(JSON.parse(Buffer.concat(chunks).toString("utf8"))) as {
      format?: unknown;
      baseUrl?: unknown;
    } | null;
  } finally {
    closeSync(fd);
  }
}

/**
 * The format a manifest file says it has when it is not this velodata's (an older velodata wrote
 * it), or null: this format, or no manifest to read. Read only to say so when a tree is refused.
 */
export function otherManifestFormat(path: string): number | null {
  try {
    const format = headOf(path)?.format;
    return typeof format === "number" && format !== MANIFEST_FORMAT ? format : null;
  } catch {
    return null;
  }
}

/**
 * The base URL a manifest records, whatever its format and whether or not its tree can be trusted:
 * a refresh that upgrades or repairs the tree keeps it. Undefined when none is recorded.
 */
export function recordedBaseUrl(path: string): string | undefined {
  try {
    const file = headOf(path);
    return typeof file?.baseUrl === "string" ? file.baseUrl : undefined;
  } catch {
    return undefined;
  }
}

const LINE = "\n";

/**
 * The columns of a manifest read (`text`: the bytes after its numbers' columns), or null when it
 * is of another format or they do not align.
 */
function columnsOf(onDisk: ManifestOnDisk | null, text: Buffer): ManifestFile | null {
  if (onDisk?.format !== MANIFEST_FORMAT) return null;
  const { lines: sizesOfLines, ...columns } = onDisk;
  const { sizes, type, gzip, br } = columns;
  if (!(type instanceof Uint8Array)) return null;
  if (![sizes, gzip, br].every((column) => column instanceof Float64Array)) return null;
  const pathsSize = sizesOfLines?.paths;
  if (!(Number.isSafeInteger(pathsSize) && pathsSize >= 0 && pathsSize <= text.length)) return null;
  if (sizesOfLines.etags !== text.length - pathsSize) return null;
  // No path is empty (the root's is `/`): no bytes hold none.
  const lines = (bytes: Buffer) => (bytes.length === 0 ? [] : bytes.toString("utf8").split(LINE));
  // A copy: the file's other ~10 MB are not kept with it.
  const pathsBytes = Buffer.copyBytesFrom(text.subarray(0, pathsSize));
  const file: ManifestFile = {
    ...columns,
    // A plain Uint8Array, not the Buffer read: a Buffer's `slice` is a view, and a patched
    // manifest would write into this one's column.
    type: new Uint8Array(type.buffer, type.byteOffset, type.length),
    paths: lines(pathsBytes),
    etags: lines(text.subarray(pathsSize)),
    pathsBytes,
  };
  const count = file.paths.length;
  const aligned = [file.etags, sizes, type, gzip, br].every((column) => column.length === count);
  return aligned ? file : null;
}

/** What was read or made, kept for writing it back as it is, and its index of paths if made. */
const stored = new WeakMap<
  Manifest,
  { file: ManifestFile; made: () => ReadonlyMap<string, number> | undefined }
>();

function manifestFrom(file: ManifestFile, known?: ReadonlyMap<string, number>): Manifest {
  // Made once paths are looked up often: the trust test's worker walks the columns and never
  // looks one up, a cron refresh looks up its ~20,000 changed paths among 200,000 (a binary search
  // each, or a hint it has), a full refresh every path (a Map after the first half).
  let made = known;
  let lookups = 0;
  const index = (): ReadonlyMap<string, number> => {
    if (made) return made;
    const map = new Map<string, number>();
    for (let at = 0; at < file.paths.length; at++) map.set(file.paths[at] as string, at);
    made = map;
    return map;
  };
  // Positions searched or hinted, kept: a cron refresh asks for each changed path three times
  // (its release id, the patched manifest, the update's check of the siblings).
  const found = new Map<string, number>();
  const positionOf = (path: string, hint?: number): number => {
    if (made) return made.get(path) ?? -1;
    const kept = found.get(path);
    if (kept !== undefined) return kept;
    let at: number;
    if (hint !== undefined && file.paths[hint] === path) at = hint;
    else if (++lookups > file.paths.length / 2) return index().get(path) ?? -1;
    else at = sortedPosition(file.paths, path);
    if (at >= 0) found.set(path, at);
    return at;
  };
  const entryAt = (at: number): ManifestEntry => {
    const etag = file.etags[at] as string;
    const entry: ManifestEntry = {
      etag,
      size: file.sizes[at] as number,
      type: file.types[file.type[at] as number] ?? "",
    };
    const gzip = file.gzip[at] as number;
    const br = file.br[at] as number;
    if (gzip < 0 || br < 0) return entry;
    // The siblings' ETags are made only when asked for: a refresh looks up 200,000 entries.
    const owner = { etag } as ReleaseFile;
    entry.variants = {
      gzip: {
        size: gzip,
        get etag() {
          return variantEtag(owner, "gzip");
        },
      },
      br: {
        size: br,
        get etag() {
          return variantEtag(owner, "br");
        },
      },
    };
    return entry;
  };
  let files: Record<string, ManifestEntry> | undefined;
  const manifest: Manifest = {
    release: file.release,
    generatedAt: file.generatedAt,
    baseUrl: typeof file.baseUrl === "string" ? file.baseUrl : undefined,
    refreshSeconds: Number.isInteger(file.refreshSeconds) ? file.refreshSeconds : undefined,
    paths: file.paths,
    entry: (path) => {
      const at = positionOf(path);
      return at < 0 ? undefined : entryAt(at);
    },
    positionOf,
    etagAt: (at) => file.etags[at],
    get files() {
      files ??= Object.fromEntries(file.paths.map((path, at) => [path, entryAt(at)]));
      return files;
    },
  };
  // Not `index()`: a cron refresh looks up a tenth of the paths and never needs the Map of all.
  stored.set(manifest, { file, made: () => made });
  return manifest;
}

/**
 * The position of `path` in `paths`, sorted in code-unit order as manifestOf writes them, or -1
 * (also when a manifest edited by hand is not sorted: its paths are then not found, not misread).
 */
function sortedPosition(paths: readonly string[], path: string): number {
  let low = 0;
  let high = paths.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const here = paths[middle] as string;
    if (here === path) return middle;
    if (here < path) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** Each path's size and its siblings' (-1: none), aligned with `paths`: for walks over every file. */
export function manifestSizes(manifest: Manifest): {
  sizes: ArrayLike<number>;
  gzip: ArrayLike<number>;
  br: ArrayLike<number>;
} {
  const file = stored.get(manifest)?.file;
  if (!file) throw new Error("bug: a manifest not made by manifestFrom");
  return { sizes: file.sizes, gzip: file.gzip, br: file.br };
}
