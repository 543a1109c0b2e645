// Compressed variants kept in shared memory, which V8 does not count as its own (see
// encoded-together.ts): every 64 MB of new ArrayBuffer memory starts a marking of the whole heap.

/**
 * `chunks` joined into one new buffer of shared memory. A server of a million stations makes its
 * changed answers' variants after each swap: joined into ArrayBuffers, with zlib's output buffers
 * beside them, they started a marking of its ~3 GB heap every ~5 s, back to back, and took ~40 s
 * of each minute (~29 s since). The price: a dropped one waits for a collection, and fewer come
 * (~185 MB more RSS for a server of 100,000 stations, level over 30 minutes).
 */
export function sharedConcat(chunks: readonly Uint8Array[]): Buffer {
  let size = 0;
  for (const chunk of chunks) size += chunk.byteLength;
  const joined = Buffer.from(new SharedArrayBuffer(size));
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.byteLength;
  }
  return joined;
}
