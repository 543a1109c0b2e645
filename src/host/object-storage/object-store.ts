// What the publisher needs of a store: list, read, put, delete. The S3 client implements it; tests may wrap it.

export interface ObjectHeaders {
  readonly contentType: string;
  readonly cacheControl: string;
  readonly contentDisposition?: string;
  readonly contentEncoding?: string;
}

export interface ObjectStore {
  /** Keys under `prefix` (the whole bucket when empty) with their ETags. */
  list(prefix: string): Promise<Map<string, string>>;
  /** An object's text, or null when there is none. */
  readText(key: string): Promise<string | null>;
  /** Stores the object whole; answers the ETag the store gave it, when it says. */
  put(key: string, body: Uint8Array, headers: ObjectHeaders): Promise<string | undefined>;
  delete(key: string): Promise<void>;
}
