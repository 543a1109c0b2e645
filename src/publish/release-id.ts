// A release's id: the SHA-1 of every path and ETag in path order, made whole for a build and
// updated in place for a refresh that replaces some answers.
import * as crypto from "node:crypto";
import type { IndexedMap } from "../indexed-map.js";
import { oncePerObject } from "../once-per-object.js";
import { pathsInOrder } from "./paths-in-order.js";
import type { ReleaseFile } from "./release.js";
import { oneShotSha1Hex } from "./sha1.js";

/** makeRelease's id of `files`. */
export function releaseIdOfFiles(files: ReadonlyMap<string, ReleaseFile>): string {
  const id = new ReleaseId();
  for (const path of pathsInOrder(files)) id.add(path, (files.get(path) as ReleaseFile).etag);
  return id.digest();
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

/** Keeps `files`' id lines for the next replacedId: the release a server starts serving. */
export function keepIdLines(files: IndexedMap<string, ReleaseFile>): void {
  latestIdLines = idLinesOf(files);
}

/** `files` has `before`'s paths and ETags (variants added): the kept id lines stay right for it. */
export function sameIdLines(
  before: IndexedMap<string, ReleaseFile>,
  files: IndexedMap<string, ReleaseFile>,
): void {
  if (latestIdLines?.files === before) latestIdLines = { ...latestIdLines, files };
}

/** makeRelease's id of `files`, made from `before`'s by replacing the files at `changed`. */
export function replacedId(
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
