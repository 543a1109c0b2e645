import { Transform } from "node:stream";
import {
  brotliDecompressSync,
  constants,
  createGzip,
  deflateRawSync,
  gunzipSync,
  inflateRawSync,
} from "node:zlib";
import { describe, expect, it } from "vitest";
import { brotliOfList } from "../../src/publish/brotli-list.js";
import { compressBody, contractListPieces } from "../../src/publish/compress.js";
import { CHUNK, throughStreams, withJoined } from "../../src/publish/zlib-input.js";

/** A list-like body of `rows` items, each its own chunk and its comma another, as spliced lists are. */
function listBody(rows: number, seed: number): Buffer[] {
  const body: Buffer[] = [Buffer.from("[")];
  for (let index = 0; index < rows; index++) {
    if (index > 0) body.push(Buffer.from(","));
    body.push(Buffer.from(`{"number":${index},"bikes":${(index * seed) % 41},"seed":${seed}}`));
  }
  body.push(Buffer.from("]"));
  return body;
}

describe("compressing bodies through lent buffers", () => {
  it("gives each of many bodies compressed at once its own bytes", async () => {
    // Big bodies (several pieces each) and small ones (joined), all in flight together: a buffer
    // filled again before a stream consumed it, or lent to two jobs, would mix their bytes.
    const bodies = [1, 2, 3, 4, 5, 6].map((seed) => listBody(seed % 2 ? 150_000 : 9_000, seed));
    const made = await Promise.all(
      bodies.map(async (body) => ({
        both: await compressBody(body, { gzip: 1, brotli: 1 }),
        pieces: await contractListPieces(body, { gzip: 1, brotli: 1 }),
      })),
    );
    made.forEach(({ both, pieces }, at) => {
      const bytes = Buffer.concat(bodies[at] as Buffer[]);
      expect(gunzipSync(both.gzip).equals(bytes)).toBe(true);
      expect(brotliDecompressSync(both.br).equals(bytes)).toBe(true);
      const items = bytes.subarray(1, -1); // between the list's brackets
      const inflated = inflateRawSync(pieces.gzip.piece, { finishFlush: constants.Z_SYNC_FLUSH });
      expect(inflated.equals(items)).toBe(true);
      expect(brotliDecompressSync(brotliOfList([pieces.br])).equals(bytes)).toBe(true);
    });
    expect(Buffer.concat(bodies[0] as Buffer[]).byteLength).toBeGreaterThan(4 * CHUNK);
  });

  it("deflates a big list's items into the bytes the one-shot call makes", async () => {
    const body = listBody(70_000, 7);
    const bytes = Buffer.concat(body);
    expect(bytes.byteLength).toBeGreaterThan(CHUNK);
    const items = bytes.subarray(1, -1);
    const oneShot = deflateRawSync(items, { level: 1, finishFlush: constants.Z_FULL_FLUSH });
    const { gzip } = await contractListPieces(body, { gzip: 1, brotli: 1 });
    expect(gzip.piece.equals(oneShot)).toBe(true);
  });

  it("joins a body for a one-shot job, and a body of one chunk is its own bytes", async () => {
    const chunk = Buffer.from("one chunk");
    expect(await withJoined([chunk], async (bytes) => bytes)).toBe(chunk);
    const seen = await withJoined([Buffer.from("ab"), Buffer.from("c")], async (bytes) =>
      Buffer.from(bytes).toString(),
    );
    expect(seen).toBe("abc");
  });

  it("fails when a stream fails, and stops the others", async () => {
    const failing = new Transform({
      transform(_chunk, _encoding, callback) {
        callback(new Error("disk on fire"));
      },
    });
    const gzip = createGzip();
    await expect(throughStreams(listBody(70_000, 3), [gzip, failing])).rejects.toThrow(
      "disk on fire",
    );
    expect(gzip.destroyed).toBe(true);
  });
});
