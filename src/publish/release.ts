// A Release: an immutable set of answers (URL path → bytes + headers), built in memory, written and served as is.
import { createHash } from "node:crypto";
import { type Endpoint, type Freshness, routeOf } from "../routes/routes.js";

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
  const hash = createHash("sha1");
  let size = 0;
  for (const chunk of body) {
    hash.update(chunk);
    size += chunk.byteLength;
  }
  return { body, size, contentType, freshness, etag: `"${hash.digest("base64url")}"` };
}

/** The answer of one endpoint: its content type and freshness come from the route table. */
export function endpointFile(endpoint: Endpoint, body: readonly Uint8Array[]): ReleaseFile {
  const route = routeOf(endpoint);
  return releaseFile(body, route.contentType, route.freshness);
}

export function makeRelease(
  files: ReadonlyMap<string, ReleaseFile>,
  counts: ReleaseCounts,
  generatedAt: Date,
  contracts: readonly ReleaseContract[] = [],
): Release {
  const hash = createHash("sha1");
  for (const [path, file] of [...files].sort(([a], [b]) => (a < b ? -1 : 1)))
    hash.update(`${path} ${file.etag}\n`);
  const byName = new Map(contracts.map((contract) => [contract.name.toLowerCase(), contract]));
  return { id: hash.digest("hex").slice(0, 16), generatedAt, files, counts, contracts: byName };
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
