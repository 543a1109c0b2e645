// A list's brotli variant assembled from pieces, as gzipOfList assembles its gzip: each contract's
// list compressed once, and the list of all stations made of its contracts' pieces, no byte of it
// compressed again (~170 ms of the thread pool a minute at 100,000 stations, ~1.7 s at a million).
import type { Transform } from "node:stream";
import { brotliCompressSync, constants, createBrotliCompress } from "node:zlib";
import { sharedConcat } from "./zlib-input.js";

/**
 * Whether pieces made at this quality can be joined. Brotli's two fastest levels compress each
 * input "independently from the input history" (its compress_fragment*.c): no reference before
 * the piece's start, no static dictionary, no distance remembered from before it, one literal code
 * whatever the bytes before. The other levels use all of these, and their pieces cannot.
 */
export const joinable = (quality: number): boolean => quality <= 1;

const FLUSH = constants.BROTLI_OPERATION_FLUSH;

// The stream header (the window size, the same for every piece: the default's), padded to a byte
// by an empty metadata block: what a stream flushed before any input starts with.
const HEAD = brotliCompressSync(Buffer.alloc(0), {
  finishFlush: FLUSH,
  params: { [constants.BROTLI_PARAM_QUALITY]: 1 },
});
// The stream's last, empty meta-block: ISLAST and ISLASTEMPTY set (RFC 7932, section 9.2).
const LAST = Buffer.from([0b11]);

/**
 * One byte as an uncompressed meta-block (RFC 7932, section 9.2): ISLAST 0, MNIBBLES 4 (`00`),
 * MLEN - 1 = 0 in 16 bits, ISUNCOMPRESSED 1 (bit 19), padding to the byte, the byte.
 */
const literal = (character: string): Buffer =>
  Buffer.from([0x00, 0x00, 0x08, character.charCodeAt(0)]);
const OPEN = literal("[");
const COMMA = literal(",");
const CLOSE = literal("]");

/**
 * A stream whose output, once its input has gone through and it has ended, is HEAD and then a
 * piece (see brotliPiece): flushed before its input and at its end, never finished. `options` as
 * for createBrotliCompress, at a joinable quality.
 */
export function brotliPieceStream(options: Parameters<typeof createBrotliCompress>[0]): Transform {
  const quality = options?.params?.[constants.BROTLI_PARAM_QUALITY];
  if (typeof quality !== "number" || !joinable(quality))
    throw new Error(`bug: brotli pieces need a joinable quality, not ${quality}`);
  const stream = createBrotliCompress({ ...options, finishFlush: FLUSH });
  stream.flush(FLUSH);
  return stream;
}

/** What a brotliPieceStream made, without its HEAD: meta-blocks ending on a byte, none the last. */
export function brotliPiece(made: Buffer): Buffer {
  if (!made.subarray(0, HEAD.length).equals(HEAD))
    throw new Error("bug: a brotli piece does not start with the stream header of the others");
  return made.subarray(HEAD.length);
}

/**
 * The brotli variant of a list `[p1,p2,…]` from its parts' pieces (each part's bytes between the
 * commas, compressed by a brotliPieceStream), in order.
 */
export function brotliOfList(pieces: readonly Uint8Array[]): Buffer {
  const chunks: Uint8Array[] = [HEAD, OPEN];
  pieces.forEach((piece, index) => {
    if (index > 0) chunks.push(COMMA);
    chunks.push(piece);
  });
  chunks.push(CLOSE, LAST);
  return sharedConcat(chunks);
}
