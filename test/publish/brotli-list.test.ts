// A list's brotli variant joined from pieces compressed apart: it must decode to the list exactly.
import { brotliDecompressSync, constants, createBrotliCompress } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  brotliOfList,
  brotliPiece,
  brotliPieceStream,
  joinable,
} from "../../src/publish/brotli-list.js";
import { CHUNK, throughStreams } from "../../src/publish/zlib-input.js";

const QUALITY = constants.BROTLI_PARAM_QUALITY;

/** A part of a list: station-like items, much alike from part to part (what a reference across pieces would point at). */
function part(index: number, items: number): Buffer {
  const rows = Array.from(
    { length: items },
    (_, at) =>
      `{"number":${at},"contract_name":"ville-${index}","name":"Place de l'Église ${at}","bikes":${(at * 7 + index) % 23}}`,
  );
  return Buffer.from(rows.join(","));
}

const listOf = (parts: readonly Buffer[]): Buffer =>
  Buffer.concat([Buffer.from("["), Buffer.from(parts.join(",")), Buffer.from("]")]);

async function pieceOf(bytes: Buffer, quality = 1): Promise<Buffer> {
  const stream = brotliPieceStream({ params: { [QUALITY]: quality } });
  const [made] = (await throughStreams([bytes], [stream])) as [Buffer];
  return brotliPiece(made);
}

describe("brotliOfList", () => {
  it("joins pieces compressed apart into one stream that decodes to the list", async () => {
    // One part of several pieces of CHUNK bytes (streamed), small ones, one of a single item.
    const parts = [part(0, 30_000), part(1, 500), part(2, 1), part(3, 2_000)];
    expect(parts[0]?.length).toBeGreaterThan(2 * CHUNK);
    const pieces = await Promise.all(parts.map((bytes) => pieceOf(bytes)));
    const list = listOf(parts);
    const joined = brotliOfList(pieces);
    expect(brotliDecompressSync(joined).equals(list)).toBe(true);
    // The same bytes from the same pieces; shared memory, as gzipOfList's.
    expect(brotliOfList(pieces).equals(joined)).toBe(true);
    expect(joined.buffer).toBeInstanceOf(SharedArrayBuffer);
    // Parts joined in another order make that list.
    const reversed = [...parts].reverse();
    expect(brotliDecompressSync(brotliOfList([...pieces].reverse())).equals(listOf(reversed))).toBe(
      true,
    );
  });

  it("gives an empty list and a list of one part", async () => {
    expect(brotliDecompressSync(brotliOfList([])).toString()).toBe("[]");
    const one = part(5, 40);
    expect(brotliDecompressSync(brotliOfList([await pieceOf(one)])).equals(listOf([one]))).toBe(
      true,
    );
  });

  it("takes pieces only at qualities whose pieces join, since others' do not", async () => {
    expect(joinable(0) && joinable(1)).toBe(true);
    expect(joinable(2)).toBe(false);
    expect(() => brotliPieceStream({ params: { [QUALITY]: 5 } })).toThrow(/joinable quality/);
    // Why: at quality 5 a piece refers to what its stream had before it (a distance remembered,
    // the static dictionary, the bytes before), which joined is another piece's.
    const parts = [part(0, 200), part(1, 200)];
    const atFive = async (bytes: Buffer) => {
      const stream = createBrotliCompress({
        finishFlush: constants.BROTLI_OPERATION_FLUSH,
        params: { [QUALITY]: 5 },
      });
      stream.flush(constants.BROTLI_OPERATION_FLUSH);
      const [made] = (await throughStreams([bytes], [stream])) as [Buffer];
      return brotliPiece(made);
    };
    const joined = brotliOfList(await Promise.all(parts.map(atFive)));
    let decoded: Buffer | undefined;
    try {
      decoded = brotliDecompressSync(joined);
    } catch {
      decoded = undefined;
    }
    expect(decoded?.equals(listOf(parts))).not.toBe(true);
  });

  it("says output not flushed before its input is no piece", () => {
    // "[1,2,3]" compressed whole: its header is not followed by the padding a piece's is.
    expect(() => brotliPiece(Buffer.from([0x0b, 0x03, 0x80, 0x5b]))).toThrow(/stream header/);
  });
});
