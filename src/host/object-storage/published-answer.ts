// What the object-storage publisher is given: one entry per answer to publish, independent of how the tree stores it.

/** Publishing order: answers first, then the lists that point at them, then the discovery files that point at lists. */
export type AnswerKind = "answer" | "list" | "discovery";

export const KIND_ORDER: readonly AnswerKind[] = ["answer", "list", "discovery"];

/** One stored form of an answer's bytes. */
export interface Representation {
  /** A hash of these bytes (any stable content hash, e.g. the tree's ETag). */
  readonly etag: string;
  read(): Promise<Uint8Array>;
}

/** A precompressed form of the same answer. */
export interface Variant extends Representation {
  readonly encoding: "gzip" | "br";
}

export interface PublishedAnswer extends Representation {
  /** The answer's URL path, as the route table writes it (percent-encoded, starting with `/`). */
  readonly urlPath: string;
  readonly kind: AnswerKind;
  readonly contentType: string;
  readonly cacheControl: string;
  /** A file to save (the bundle): its Content-Disposition. */
  readonly contentDisposition?: string;
  readonly variants?: readonly Variant[];
}

/** What goes into the store for one answer: its key, the bytes chosen and the headers they need. */
export interface StoredObject {
  readonly key: string;
  readonly kind: AnswerKind;
  readonly contentType: string;
  readonly cacheControl: string;
  readonly contentDisposition?: string;
  readonly contentEncoding?: "gzip";
  /** Bytes and headers together: equal fingerprints mean the store needs nothing new. */
  readonly fingerprint: string;
  read(): Promise<Uint8Array>;
}
