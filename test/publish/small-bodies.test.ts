// Small bodies compressed by the compiled worker thread (it sits beside `dist`'s module), sent in
// batches: compressBody's bytes for each, whatever the batch it went in; the variants in shared
// memory, as only the worker makes them (this thread's compressHere makes plain buffers).
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { compressBody, compressHere, SMALL_BODY } from "../../src/publish/compress.js";
import type { SmallBodies as Small } from "../../src/publish/small-bodies.js";
import { ROOT } from "../helpers.js";

async function compiled(): Promise<Small> {
  const module = pathToFileURL(join(ROOT, "dist/publish/small-bodies.js")).href;
  const { SmallBodies } = (await import(module)) as { SmallBodies: typeof Small };
  return new SmallBodies();
}

/** `[…]` of `count` rows, in chunks as a list's: brackets, rows and commas. */
function listBody(count: number, seed: number): Uint8Array[] {
  const body: Uint8Array[] = [Buffer.from("[")];
  for (let index = 0; index < count; index++) {
    if (index > 0) body.push(Buffer.from(","));
    body.push(Buffer.from(`{"number":${index},"name":"Gare n°${(index * seed) % 997}"}`));
  }
  body.push(Buffer.from("]"));
  return body;
}

describe("SmallBodies", () => {
  it("makes compressBody's bytes for each body, in shared memory, over several batches", async () => {
    const small = await compiled();
    try {
      // ~3.5 MB in all: more than one batch of 1 MiB, sent while others are out.
      const bodies = Array.from({ length: 120 }, (_, index) => listBody(40 + index * 8, index + 3));
      bodies.push([Buffer.alloc(SMALL_BODY, 0x61)], [Buffer.alloc(0)]);
      const levels = (index: number) =>
        index % 2 === 0 ? { gzip: 1, brotli: 1 } : { gzip: 6, brotli: 5 };
      const made = await Promise.all(
        bodies.map((body, index) => small.compress(body, levels(index))),
      );
      for (const [index, body] of bodies.entries()) {
        const pooled = await compressBody(body, levels(index));
        expect(made[index]?.gzip.equals(pooled.gzip), `body ${index}`).toBe(true);
        expect(made[index]?.br.equals(pooled.br), `body ${index}`).toBe(true);
        expect(made[index]?.br.buffer).toBeInstanceOf(SharedArrayBuffer);
      }
      // Each batch's variants come back in a buffer of their own, of their size: sent as they filled.
      const buffers = new Set(made.map((variants) => variants.br.buffer));
      expect(buffers.size).toBeGreaterThan(2);
      const variantBytes = made.reduce((sum, { gzip, br }) => sum + gzip.length + br.length, 0);
      const bufferBytes = [...buffers].reduce((sum, buffer) => sum + buffer.byteLength, 0);
      expect(bufferBytes).toBe(variantBytes);
    } finally {
      await small.stop();
    }
  });

  it("sends the bodies past what may be out at once as the worker hands batches back", async () => {
    const small = await compiled();
    try {
      // ~75 MB of bodies given at once: more batches than are ever out together.
      const bodies = Array.from({ length: 300 }, (_, index) => [
        Buffer.alloc(SMALL_BODY, `{"number":${index},"bikes":${index % 9}},`),
      ]);
      const made = await Promise.all(
        bodies.map((body) => small.compress(body, { gzip: 1, brotli: 1 })),
      );
      for (const [index, body] of bodies.entries()) {
        const here = compressHere(body, { gzip: 1, brotli: 1 });
        expect(made[index]?.gzip.equals(here.gzip), `body ${index}`).toBe(true);
        expect(made[index]?.br.equals(here.br), `body ${index}`).toBe(true);
      }
    } finally {
      await small.stop();
    }
  });

  it("refuses a body over SMALL_BODY, and those sent after it is stopped", async () => {
    const small = await compiled();
    expect(() => small.compress([Buffer.alloc(SMALL_BODY + 1)], { gzip: 1, brotli: 1 })).toThrow(
      /bug: a body of 262145 bytes sent as a small one/,
    );
    const out = small.compress(listBody(10, 1), { gzip: 1, brotli: 1 });
    await small.stop();
    await expect(out).rejects.toThrow(/stopped/);
    await expect(small.compress(listBody(10, 1), { gzip: 1, brotli: 1 })).rejects.toThrow(
      /stopped/,
    );
  });

  it("says what zlib refused, for every body of that batch", async () => {
    const small = await compiled();
    try {
      await expect(small.compress(listBody(10, 1), { gzip: 42, brotli: 1 })).rejects.toThrow(
        /compressing a small body: .*level/,
      );
    } finally {
      await small.stop();
    }
  });
});
