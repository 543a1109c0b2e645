// SHA-1 of an answer's bytes, the ETags' and release ids' hash, made cheap for the shapes answers have.
import * as crypto from "node:crypto";

/**
 * SHA-1 of the bytes, base64url. One chunk (a station, ~700 B) is hashed in one call, which costs a
 * quarter of a Hash object's; many small chunks (a body assembled from encoded items) are copied
 * into batches first: a call per chunk cost more than the hashing itself.
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
const hasOneShot = typeof crypto.hash === "function";
const oneShot = (bytes: Uint8Array, encoding: crypto.BinaryToTextEncoding): string =>
  hasOneShot
    ? crypto.hash("sha1", bytes, encoding)
    : crypto.createHash("sha1").update(bytes).digest(encoding);
export const oneShotSha1 = (bytes: Uint8Array): string => oneShot(bytes, "base64url");
export const oneShotSha1Hex = (bytes: Uint8Array): string => oneShot(bytes, "hex");
/**
 * The 20 bytes as a latin1 string (one character a byte; "binary" is Node's other name for it): to
 * be written into a buffer, without the ArrayBuffer a Buffer result is (a server hashes 200,000
 * entries a minute at a million stations).
 */
export const oneShotSha1Latin1 = (bytes: Uint8Array): string => oneShot(bytes, "binary");
