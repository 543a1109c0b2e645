// A build's variants made from a worker thread (the compiled one: it sits beside `dist`'s module):
// the same bytes as compressBody makes here, for bodies in shared memory and in plain buffers,
// small (compressed in one call) and big (streamed in pieces); the variants in shared memory.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compressBody } from "../../src/publish/compress.js";
import type { CompressionWorker as Worker } from "../../src/publish/compression-worker.js";
import { ROOT, tempDir } from "../helpers.js";

const LEVELS = { gzip: 6, brotli: 5 };

/** `[row,row,…]` of `count` rows: rows in one shared buffer, brackets and commas in plain ones. */
function listBody(count: number): Uint8Array[] {
  const rows = Array.from(
    { length: count },
    (_, index) =>
      `{"number":${index},"name":"Gare ${"é".repeat(index % 30)}","bikes":${index % 17}}`,
  );
  const shared = Buffer.from(new SharedArrayBuffer(Buffer.byteLength(rows.join(""))));
  const comma = Buffer.from(",");
  const body: Uint8Array[] = [Buffer.from("[")];
  let at = 0;
  rows.forEach((row, index) => {
    if (index > 0) body.push(comma);
    const size = shared.write(row, at);
    body.push(shared.subarray(at, at + size));
    at += size;
  });
  body.push(Buffer.from("]"));
  return body;
}

async function startWorker(): Promise<Worker> {
  const module = pathToFileURL(join(ROOT, "dist/publish/compression-worker.js")).href;
  const { CompressionWorker } = (await import(module)) as { CompressionWorker: typeof Worker };
  const worker = CompressionWorker.start();
  if (!worker) throw new Error("no compiled compression worker beside dist's module");
  return worker;
}

describe("CompressionWorker", () => {
  it("makes compressBody's bytes, in shared memory, for small and big bodies", async () => {
    const worker = await startWorker();
    try {
      // ~40 KB (one call) and ~4 MB (pieces of 1 MiB through streams), both at once.
      const bodies = [listBody(500), listBody(50_000)];
      const made = await Promise.all(bodies.map((body) => worker.compress(body, LEVELS)));
      expect(Buffer.concat(bodies[1] as Uint8Array[]).length).toBeGreaterThan(3 << 20);
      for (const [index, body] of bodies.entries()) {
        const here = await compressBody(body, LEVELS);
        const there = made[index];
        expect(there?.gzip.equals(here.gzip)).toBe(true);
        expect(there?.br.equals(here.br)).toBe(true);
        expect(there?.gzip.buffer).toBeInstanceOf(SharedArrayBuffer);
      }
    } finally {
      await worker.stop();
    }
  });

  it("refuses what it cannot compress, saying so, and goes on with the next body", async () => {
    const worker = await startWorker();
    try {
      await expect(worker.compress(listBody(10), { gzip: 42, brotli: 1 })).rejects.toThrow(
        /compressing a file: .*level/,
      );
      const made = await worker.compress(listBody(10), LEVELS);
      expect(made.gzip.equals((await compressBody(listBody(10), LEVELS)).gzip)).toBe(true);
    } finally {
      await worker.stop();
    }
  });

  it("writes the siblings itself, beside each file it is given, and says their sizes", async () => {
    const worker = await startWorker();
    try {
      const root = await tempDir();
      const files = [join(root, "a/b/list.json"), join(root, "list.json")];
      const body = listBody(5000);
      const sizes = await worker.writeSiblings(body, LEVELS, files);
      const here = await compressBody(body, LEVELS);
      expect(sizes).toEqual({ gzip: here.gzip.byteLength, br: here.br.byteLength });
      for (const file of files) {
        expect(readFileSync(`${file}.gz`).equals(here.gzip)).toBe(true);
        expect(readFileSync(`${file}.br`).equals(here.br)).toBe(true);
        expect(existsSync(file)).toBe(false); // the file itself is the writer's
      }
    } finally {
      await worker.stop();
    }
  });

  it("makes a list of all of the contracts' lists it kept as pieces, and writes its siblings", async () => {
    const worker = await startWorker();
    try {
      const root = await tempDir();
      const levels = { gzip: 1, brotli: 1 };
      // ~2.4 MB (streamed in pieces) and ~20 KB.
      const contracts = [listBody(30_000), listBody(250)];
      const file = (name: string) => join(root, `${name}.json`);
      for (const [index, body] of contracts.entries()) {
        // The small one compressed harder for its own siblings, its pieces at the list's levels.
        const own = index === 0 ? levels : LEVELS;
        const sizes = await worker.writeSiblings(body, own, [file(`c${index}`)], {
          keep: `c${index}`,
          pieceLevels: levels,
        });
        const bytes = Buffer.concat(body);
        expect(gunzipSync(readFileSync(`${file(`c${index}`)}.gz`)).equals(bytes)).toBe(true);
        expect(brotliDecompressSync(readFileSync(`${file(`c${index}`)}.br`)).equals(bytes)).toBe(
          true,
        );
        expect(sizes.br).toBe(readFileSync(`${file(`c${index}`)}.br`).length);
        if (index === 1)
          expect(readFileSync(`${file("c1")}.br`).equals((await compressBody(body, own)).br)).toBe(
            true,
          );
      }
      const all = Buffer.concat([
        Buffer.from("["),
        ...contracts
          .map((body) => Buffer.concat(body.slice(1, -1)))
          .flatMap((items, index) => (index > 0 ? [Buffer.from(","), items] : [items])),
        Buffer.from("]"),
      ]);
      const sizes = await worker.writeJoinedSiblings(["c0", "c1"], all.length, [file("all")]);
      const gzip = readFileSync(`${file("all")}.gz`);
      const br = readFileSync(`${file("all")}.br`);
      expect(gunzipSync(gzip).equals(all)).toBe(true);
      expect(brotliDecompressSync(br).equals(all)).toBe(true);
      expect(sizes).toEqual({ gzip: gzip.length, br: br.length });
      await expect(worker.writeJoinedSiblings(["c2"], 2, [file("none")])).rejects.toThrow(
        /no pieces kept/,
      );
    } finally {
      await worker.stop();
    }
  });

  it("says a sibling it cannot write as the system error, with its path", async () => {
    const worker = await startWorker();
    try {
      const root = await tempDir();
      // A folder where the `.gz` sibling goes.
      mkdirSync(join(root, "lyon.json.gz"));
      const error = await worker
        .writeSiblings(listBody(10), LEVELS, [join(root, "lyon.json")])
        .catch((cause) => cause);
      expect(error).toMatchObject({ code: "EISDIR", path: join(root, "lyon.json.gz") });
      expect(error.message).not.toMatch(/compressing a file/);
    } finally {
      await worker.stop();
    }
  });

  it("refuses a body once stopped", async () => {
    const worker = await startWorker();
    await worker.stop();
    await expect(worker.compress(listBody(10), LEVELS)).rejects.toThrow(/stopped/);
  });
});
