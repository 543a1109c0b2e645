// A Release: an immutable set of answers (URL path → bytes + headers), built in memory, written and served as is.
import * as crypto from "node:crypto";
import { IndexedMap } from "../indexed-map.js";
import { type Endpoint, type Freshness, routeOf } from "../routes/routes.js";
import { keepIdLines, releaseIdOfFiles, replacedId, sameIdLines } from "./release-id.js";
import { jsonList } from "./render/json-body.js";
import { oneShotSha1, sha1Of } from "./sha1.js";

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

// Its own module: the manifest (read by the trust test's worker) needs it without the routes.
export { variantEtag } from "./variant-etag.js";

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
  /**
   * The public base URL its OpenAPI document and GBFS files name, recorded in a tree's manifest so
   * that a refresh keeps it; absent for a release made without one (test fixtures).
   */
  readonly baseUrl?: string;
  /**
   * Seconds between its refreshes, the `ttl` its GBFS station_status feeds say, recorded in a
   * tree's manifest: the static host rules' max-age of its dynamic answers. Absent as baseUrl is.
   */
  readonly refreshSeconds?: number;
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
 * The answer of one endpoint: its content type and freshness come from the route table. `tag`: its
 * ETag's value (base64url, unquoted) when already made (a station_status feed's, statusTag), else
 * the bytes' SHA-1 made now.
 */
export function endpointFile(
  endpoint: Endpoint,
  body: readonly Uint8Array[],
  tag?: string,
): ReleaseFile {
  const route = routeOf(endpoint);
  if (tag === undefined) return releaseFile(body, route.contentType, route.freshness);
  let size = 0;
  for (const chunk of body) size += chunk.byteLength;
  const { contentType, freshness } = route;
  return { body, size, contentType, freshness, etag: `"${tag}"` };
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
  const body = jsonList(items);
  const tags = memberTagsOf(members);
  if (!tags)
    return listFileOf(
      endpoint,
      body,
      size,
      members.map((member) => member.etag),
    );
  const list = taggedList(endpoint, body, size, tags);
  listTags.set(list, tags);
  return list;
}

/**
 * `list` (made by listFile or by this) with the members at these positions replaced: listFile's
 * bytes and tag for the new members, from the list's own chunks (copied) and members' tags,
 * patched; undefined when the list was not made so or a tag is not of its members' length. The
 * tags move to the new list (patched in place: ~12 MB a minute not allocated at 100,000 stations),
 * so `list` can be patched once: again, undefined (the caller makes it whole with listFile).
 */
export function withMembers(
  list: ReleaseFile,
  endpoint: Endpoint,
  replaced: readonly (readonly [position: number, member: ReleaseFile])[],
): ReleaseFile | undefined {
  const kept = listTags.get(list);
  if (!kept) return undefined;
  listTags.delete(list);
  const body = list.body.slice();
  const tags = kept.bytes;
  let size = list.size;
  for (const [position, member] of replaced) {
    const chunk = 1 + 2 * position;
    const old = body[chunk];
    const tag = member.etag;
    if (member.body.length !== 1 || !old || tag.length !== kept.width || !isPrintableAscii(tag))
      return undefined;
    body[chunk] = member.body[0] as Uint8Array;
    size += member.size - old.byteLength;
    tags.write(tag, LIST_TAG.length + position * kept.width, "latin1");
  }
  const patched = { bytes: tags, width: kept.width };
  const next = taggedList(endpoint, body, size, patched);
  listTags.set(next, patched);
  return next;
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

/** What listFileOf hashes (LIST_TAG, then the members' tags), when every tag has the same length. */
interface ListTags {
  readonly bytes: Buffer;
  readonly width: number;
}

// Kept beside the lists listFile made (one chunk per member): a refresh patches them (withMembers).
const listTags = new WeakMap<ReleaseFile, ListTags>();

function memberTagsOf(members: readonly ReleaseFile[]): ListTags | undefined {
  const width = members[0]?.etag.length ?? 0;
  const bytes = Buffer.allocUnsafe(LIST_TAG.length + members.length * width);
  let at = bytes.write(LIST_TAG, 0, "latin1");
  for (const member of members) {
    // Tags are ASCII: one byte per character, so each sits at its position's offset.
    if (member.etag.length !== width || !isPrintableAscii(member.etag)) return undefined;
    at += bytes.write(member.etag, at, "latin1");
  }
  return { bytes, width };
}

// Printable ASCII: one byte per character, as latin1 writes it and UTF-8 hashes it.
const isPrintableAscii = (text: string): boolean => /^[\x20-\x7e]*$/.test(text);

/** listFileOf's file, its tag hashed in one call from `tags` (the same bytes it hashes). */
function taggedList(
  endpoint: Endpoint,
  body: readonly Uint8Array[],
  size: number,
  tags: ListTags,
): ReleaseFile {
  const route = routeOf(endpoint);
  const etag = `"${oneShotSha1(tags.bytes)}"`;
  return { body, size, contentType: route.contentType, freshness: route.freshness, etag };
}

export function makeRelease(
  files: ReadonlyMap<string, ReleaseFile>,
  counts: ReleaseCounts,
  generatedAt: Date,
  contracts: readonly ReleaseContract[] = [],
  baseUrl?: string,
  refreshSeconds?: number,
): Release {
  const byName = new Map(contracts.map((contract) => [contract.name.toLowerCase(), contract]));
  const id = releaseIdOfFiles(files);
  return { id, generatedAt, files, counts, contracts: byName, baseUrl, refreshSeconds };
}

/**
 * The files that change only with the source data (contracts, parkings, downloads…), in the
 * release's order. Visited in place: a million stations' ~2 million entries spread into an array
 * of pairs first took 0.5–1.7 s and ~100 MB of garbage, for the few thousand kept.
 */
export function staticFilesOf(files: ReadonlyMap<string, ReleaseFile>): Map<string, ReleaseFile> {
  const kept = new Map<string, ReleaseFile>();
  files.forEach((file, path) => {
    if (file.freshness === "static") kept.set(path, file);
  });
  return kept;
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
  const { counts, contracts, baseUrl, refreshSeconds } = served;
  return { id, generatedAt, files, counts, contracts, baseUrl, refreshSeconds };
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
  sameIdLines(before, files);
  return { ...release, files };
}

/** The same release, its files indexed and sorted so that replaceFiles shares both rather than making them. */
export function indexedRelease(release: Release): Release {
  const files = IndexedMap.of(release.files);
  keepIdLines(files);
  return files === release.files ? release : { ...release, files };
}

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
