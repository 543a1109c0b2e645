// What the publisher needs of a store: list, read, put, delete. The S3 client implements it; tests may wrap it.

export interface ObjectHeaders {
  readonly contentType: string;
  readonly cacheControl: string;
  readonly contentDisposition?: string;
  readonly contentEncoding?: string;
}

/** A key as the store lists it. */
export interface ListedObject {
  readonly etag: string;
  /** Bytes stored, as the listing says. */
  readonly size: number;
}

/** The reading half of a store: what planning needs, nothing that writes. */
export interface StoreReader {
  /** How messages name the store (bucket, prefix, endpoint), never with a credential. */
  readonly where?: string;
  /** Keys under `prefix` (the whole bucket when empty) with their ETags and sizes. */
  list(prefix: string): Promise<Map<string, ListedObject>>;
  /** An object's text, or null when there is none. */
  readText(key: string): Promise<string | null>;
}

export interface ObjectStore extends StoreReader {
  /** Stores the object whole; answers the ETag the store gave it, when it says. */
  put(key: string, body: Uint8Array, headers: ObjectHeaders): Promise<string | undefined>;
  delete(key: string): Promise<void>;
}

/**
 * The store's reading half alone, as a new object: a dry run given it cannot write, whatever it
 * is handed on to, since the object it holds has no put or delete at all.
 */
export const readOnly = (store: StoreReader): StoreReader => ({
  ...(store.where ? { where: store.where } : {}),
  list: (prefix) => store.list(prefix),
  readText: (key) => store.readText(key),
});
