// A Release: an immutable set of answers (URL path → bytes + headers), built in memory, written and served as is.
import * as crypto from "node:crypto";
import { IndexedMap } from "../indexed-map.js";
import { oncePerObject } from "../once-per-object.js";
import { type Endpoint, type Freshness, routeOf } from "../routes/routes.js";
import { jsonList } from "./render/json-body.js";

export { CSV_TYPE, JSON_TYPE, ZIP_TYPE } from "../routes/routes.js";

export interface ReleaseFile {
  /** The body in chunks: big lists are never joined into one string or buffer. */
  readonly body: readonly Uint8Array[];
  readonly size: number;
  readonly contentType: string;
  /** Strong ETag, quoted, derived from the bytes alone so equal bytes always get equal tags. */
  readonly etag: string;
  readonly freshness: Freshness;
  /** Compressed copies of the body, made before the release is served (see compress.ts); absent when not worth it. */
  readonly variants?: Variants;
}

/** The same bytes gzip- and brotli-encoded, byte-identical for the same body (deterministic headers). */
export interface Variants {
  readonly gzip: Buffer;
  readonly br: Buffer;
}

/** Each representation gets its own strong ETag (RFC 9110 §8.8.3): the file's, suffixed. */
export const variantEtag = (file: ReleaseFile, encoding: keyof Variants): string =>
  `${file.etag.slice(0, -1)}-${encoding}"`;

export interface ReleaseCounts {
  contracts: number;
  stations: number;
  parkings: number;
}

/** What the server needs to know of a contract to answer for it. */
export interface ReleaseContract {
  readonly name: string;
  readonly parkingApi: boolean;
}

export interface Release {
  /** Derived from the content: two releases with the same answers have the same id. */
  readonly id: string;
  readonly generatedAt: Date;
  readonly files: ReadonlyMap<string, ReleaseFile>;
  readonly counts: ReleaseCounts;
  /** By lower-case name: clients send `Dublin` for `dublin`. */
  readonly contracts: ReadonlyMap<string, ReleaseContract>;
}

export function releaseFile(
  body: readonly Uint8Array[],
  contentType: string,
  freshness: Freshness,
): ReleaseFile {
  let size = 0;
  for (const chunk of body) size += chunk.byteLength;
  return { body, size, contentType, freshness, etag: `"${sha1Of(body)}"` };
}

/**
 * SHA-1 of the bytes, base64url. One chunk (a station, ~700 B) is hashed in one call, which costs a
 * quarter of a Hash object's; many small chunks (a GBFS feed assembled from 2,000 entries) are
 * copied into batches first: a call per chunk cost more than the hashing itself.
 */
function sha1Of(body: readonly Uint8Array[]): string {
  if (body.length === 1) return oneShotSha1(body[0] as Uint8Array);
  const hash = crypto.createHash("sha1");
  let filled = 0;
  for (const chunk of body) {
    const big = chunk.byteLength > HASH_BATCH / 4;
    if (filled > 0 && (big || filled + chunk.byteLength > HASH_BATCH)) {
      hash.update(hashBatch.subarray(0, filled));
      filled = 0;
    }
    if (big) hash.update(chunk);
    else if (chunk.byteLength === 1) {
      // The commas between a list's items: half the chunks, not worth a call each.
      hashBatch[filled++] = chunk[0] as number;
    } else {
      hashBatch.set(chunk, filled);
      filled += chunk.byteLength;
    }
  }
  return hash.update(hashBatch.subarray(0, filled)).digest("base64url");
}

const HASH_BATCH = 1 << 16;
// Reused: Hash.update consumes its input before returning.
const hashBatch = Buffer.allocUnsafe(HASH_BATCH);
// crypto.hash came with Node 20.12; the engines field says 20.
const oneShot =
  typeof crypto.hash === "function"
    ? (bytes: Uint8Array, encoding: "base64url" | "hex") => crypto.hash("sha1", bytes, encoding)
    : (bytes: Uint8Array, encoding: "base64url" | "hex") =>
        crypto.createHash("sha1").update(bytes).digest(encoding);
const oneShotSha1 = (bytes: Uint8Array): string => oneShot(bytes, "base64url");
const oneShotSha1Hex = (bytes: Uint8Array): string => oneShot(bytes, "hex");

/** The answer of one endpoint: its content type and freshness come from the route table. */
export function endpointFile(endpoint: Endpoint, body: readonly Uint8Array[]): ReleaseFile {
  const route = routeOf(endpoint);
  return releaseFile(body, route.contentType, route.freshness);
}

/**
 * A list `[a,b,c]` of single-chunk answers, sharing their bytes. Its strong ETag is derived from
 * theirs, not from its own bytes: hashing the 300 MB of lists of 100,000 stations cost a refresh
 * more than rendering what changed. It stays a function of the bytes for lists made this way (the
 * same members give the same bytes and the same tag; other bytes, another tag), so every release,
 * build or refresh, tags the same list alike; nothing may assume a list's tag is the SHA-1 of its bytes.
 */
export function listFile(endpoint: Endpoint, members: readonly ReleaseFile[]): ReleaseFile {
  const items: Uint8Array[] = [];
  let size = 0;
  for (const member of members) {
    if (member.body.length !== 1) throw new Error("bug: a list member must be one chunk");
    items.push(member.body[0] as Uint8Array);
    size += member.size;
  }
  // `[`, `]` and a comma between members.
  size += 2 + Math.max(0, members.length - 1);
  return listFileOf(
    endpoint,
    jsonList(items),
    size,
    members.map((member) => member.etag),
  );
}

/**
 * The list `listFile` makes of members with these ETags, in order, from its body already
 * assembled (a cron refresh splices it from the published bytes, unchanged runs of members as
 * one chunk each): the same bytes get the same tag.
 */
export function listFileOf(
  endpoint: Endpoint,
  body: readonly Uint8Array[],
  size: number,
  memberTags: readonly string[],
): ReleaseFile {
  const route = routeOf(endpoint);
  const hash = crypto.createHash("sha1").update(LIST_TAG);
  let tags = "";
  for (const tag of memberTags) {
    tags += tag;
    // Hashed in batches: one call per member costs more than the hashing itself.
    if (tags.length > TAGS_BATCH) {
      hash.update(tags);
      tags = "";
    }
  }
  const etag = `"${hash.update(tags).digest("base64url")}"`;
  return { body, size, contentType: route.contentType, freshness: route.freshness, etag };
}

// Tells a list's tag from that of a file whose bytes would be its members' tags.
const LIST_TAG = "velodata list [a,b,c] of these answers:\n";
const TAGS_BATCH = 1 << 16;

export function makeRelease(
  files: ReadonlyMap<string, ReleaseFile>,
  counts: ReleaseCounts,
  generatedAt: Date,
  contracts: readonly ReleaseContract[] = [],
): Release {
  const id = new ReleaseId();
  for (const path of sortedPaths(files)) id.add(path, (files.get(path) as ReleaseFile).etag);
  const byName = new Map(contracts.map((contract) => [contract.name.toLowerCase(), contract]));
  return { id: id.digest(), generatedAt, files, counts, contracts: byName };
}

/**
 * `served` with the files of `changed` in place of those at the same paths: what a refresh swaps
 * in, where only the bytes under some URLs change. The paths, their order and their index are
 * shared with `served` (no copy of 200,000 entries, no sort); the id is what makeRelease would
 * give the same files. Undefined when `changed` holds a path `served` has not.
 */
export function replaceFiles(
  served: Release,
  changed: ReadonlyMap<string, ReleaseFile>,
  generatedAt: Date,
): Release | undefined {
  const before = IndexedMap.of(served.files);
  const files = before.with(changed);
  if (!files) return undefined;
  const id = replacedId(before, files, changed.keys());
  return { id, generatedAt, files, counts: served.counts, contracts: served.contracts };
}

/**
 * The same release (same id, bytes and ETags) with `compressed`'s files, the same answers carrying
 * their variants, in place of those at the same paths: a refresh's second swap.
 */
export function addVariants(
  release: Release,
  compressed: ReadonlyMap<string, ReleaseFile>,
): Release {
  const before = IndexedMap.of(release.files);
  const files = before.with(compressed);
  if (!files) throw new Error("bug: variants for a path the release has not");
  // The same ETags: the id's lines stay right for the next refresh.
  if (latestIdLines?.files === before) latestIdLines = { ...latestIdLines, files };
  return { ...release, files };
}

/** The same release, its files indexed and sorted so that replaceFiles shares both rather than making them. */
export function indexedRelease(release: Release): Release {
  const files = IndexedMap.of(release.files);
  latestIdLines = idLinesOf(files);
  return files === release.files ? release : { ...release, files };
}

/** A release's id: the SHA-1 of every path and ETag, in path order. */
class ReleaseId {
  private readonly hash = crypto.createHash("sha1");
  // Hashed in batches: one call per answer costs more than the hashing itself.
  private batch = "";
  private count = 0;

  add(path: string, etag: string): void {
    this.batch += `${path} ${etag}\n`;
    if (++this.count % ID_BATCH === 0) {
      this.hash.update(this.batch);
      this.batch = "";
    }
  }

  digest(): string {
    return this.hash.update(this.batch).digest("hex").slice(0, 16);
  }
}

const ID_BATCH = 4096;

// The last order made: a refresh keeps the same paths (new bytes under them), and sorting 200,000
// paths every minute cost more than checking that the set is the same.
let lastOrder: readonly string[] = [];

/** The paths in code-unit order (as `<` compares them). */
function sortedPaths(files: ReadonlyMap<string, ReleaseFile>): readonly string[] {
  const known = lastOrder;
  if (known.length === files.size && known.every((path) => files.has(path))) return known;
  lastOrder = [...files.keys()].sort();
  return lastOrder;
}

/**
 * The id's input (ReleaseId's lines, as bytes) of the latest release replaceFiles made, with where
 * each file's ETag sits in it: the next refresh rewrites only the ETags that changed and hashes it
 * in one call, instead of formatting 200,000 lines again (~12 MB kept at 100,000 stations).
 */
interface IdLines {
  readonly files: IndexedMap<string, ReleaseFile>;
  readonly bytes: Buffer;
  /** By position in `files`. */
  readonly tagAt: Uint32Array;
}

let latestIdLines: IdLines | undefined;

/** makeRelease's id of `files`, made from `before`'s by replacing the files at `changed`. */
function replacedId(
  before: IndexedMap<string, ReleaseFile>,
  files: IndexedMap<string, ReleaseFile>,
  changed: Iterable<string>,
): string {
  let lines = latestIdLines?.files === before ? latestIdLines : undefined;
  if (lines) {
    for (const path of changed) {
      const position = files.positionOf(path) as number;
      const tag = files.valueAt(position).etag;
      // In place only where the new tag takes the bytes of the old one (ASCII, the same length).
      const old = before.valueAt(position).etag;
      if (tag.length !== old.length || !PRINTABLE_ASCII.test(tag) || !PRINTABLE_ASCII.test(old)) {
        lines = undefined;
        break;
      }
      lines.bytes.write(tag, lines.tagAt[position] as number, "latin1");
    }
  }
  const made = lines ? { ...lines, files } : idLinesOf(files);
  latestIdLines = made;
  return oneShotSha1Hex(made.bytes).slice(0, 16);
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** ReleaseId's lines, `path etag\n` in path order, as UTF-8 bytes, and where each tag sits. */
function idLinesOf(files: IndexedMap<string, ReleaseFile>): IdLines {
  const paths = files.keyList;
  const order = sortedPositions(paths);
  let size = 0;
  for (const position of order) {
    size += Buffer.byteLength(paths[position] as string);
    size += Buffer.byteLength(files.valueAt(position).etag) + 2;
  }
  const bytes = Buffer.allocUnsafe(size);
  const tagAt = new Uint32Array(paths.length);
  let at = 0;
  for (const position of order) {
    at += bytes.write(paths[position] as string, at);
    bytes[at++] = SPACE;
    tagAt[position] = at;
    at += bytes.write(files.valueAt(position).etag, at);
    bytes[at++] = NEW_LINE;
  }
  return { files, bytes, tagAt };
}

const SPACE = 0x20;
const NEW_LINE = 0x0a;

/** Positions in `paths` in the paths' code-unit order, sorted once per list of paths. */
const sortedPositions = oncePerObject((paths: readonly string[]): Uint32Array => {
  // The engine's own string sort, then back to positions: a comparator called from the sort of a
  // typed array cost six times as much.
  const position = new Map(paths.map((path, at) => [path, at]));
  return Uint32Array.from([...paths].sort(), (path) => position.get(path) as number);
});

/**
 * The same answer carrying compressed variants. Property descriptors are copied rather than
 * spread, so a body given by a getter (a file kept on disk by a cron refresh) is never read.
 */
export function withVariants(file: ReleaseFile, variants: Variants): ReleaseFile {
  const descriptors = Object.getOwnPropertyDescriptors(file);
  return Object.defineProperties(
    {},
    {
      ...descriptors,
      variants: { value: variants, enumerable: true },
    },
  ) as ReleaseFile;
}

/**
 * The id `makeRelease` gives the files whose paths, in code-unit order, carry these ETags: for a
 * cron refresh that knows the paths from its manifest and replaces only some ETags.
 */
export function releaseIdOf(
  sortedPaths: readonly string[],
  etagAt: (position: number) => string | undefined,
): string {
  const id = new ReleaseId();
  for (let at = 0; at < sortedPaths.length; at++)
    id.add(sortedPaths[at] as string, String(etagAt(at)));
  return id.digest();
}
