// SHA-1 of an answer's bytes, the ETags' and release ids' hash, made cheap for the shapes answers have.
import * as crypto from "node:crypto";

/**
 * SHA-1 of the bytes, base64url. One chunk (a station, ~700 B) is hashed in one call, which costs a
 * quarter of a Hash object's; many small chunks (a GBFS feed assembled from 2,000 entries) are
 * copied into batches first: a call per chunk cost more than the hashing itself.
 */
export function sha1Of(body: readonly Uint8Array[]): string {
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
export const oneShotSha1 = (bytes: Uint8Array): string => oneShot(bytes, "base64url");
export const oneShotSha1Hex = (bytes: Uint8Array): string => oneShot(bytes, "hex");

/**
 * sha1Of's digest, made in the thread pool (WebCrypto): the calling thread only gathers the bytes,
 * into a scratch buffer reused from call to call (Node copies a job's input before it returns).
 */
export async function sha1InPool(body: readonly Uint8Array[]): Promise<string> {
  let size = 0;
  for (const chunk of body) size += chunk.byteLength;
  if (scratch.byteLength < size)
    scratch = Buffer.allocUnsafeSlow(Math.max(size, 2 * scratch.byteLength));
  let at = 0;
  for (const chunk of body) {
    if (chunk.byteLength === 1) scratch[at++] = chunk[0] as number;
    else {
      scratch.set(chunk, at);
      at += chunk.byteLength;
    }
  }
  const digest = await crypto.subtle.digest("SHA-1", scratch.subarray(0, size));
  return Buffer.from(digest).toString("base64url");
}

let scratch = Buffer.allocUnsafeSlow(1 << 20);
