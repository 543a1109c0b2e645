import { brotliDecompressSync, constants, crc32, deflateRawSync, gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { brotliOfList } from "../../src/publish/brotli-list.js";
import {
  compressBody,
  compressEach,
  compressHere,
  compressRelease,
  contractListPieces,
  gzipOfList,
  KeptPieces,
  levelsFor,
  MIN_COMPRESSED_SIZE,
  SMALL_BODY,
} from "../../src/publish/compress.js";
import type { ListLayout } from "../../src/publish/list-layout.js";
import {
  JSON_TYPE,
  type Release,
  type ReleaseFile,
  releaseFile,
} from "../../src/publish/release.js";
import { fixtureRelease } from "./publish-helpers.js";

let release: Release;
let compressed: Release;
beforeAll(async () => {
  release = await fixtureRelease();
  compressed = await compressRelease(release, { budget: "refresh" });
});

describe("compressRelease", () => {
  it("gives every text file of 1 KiB or more variants that decode to its bytes", () => {
    let withVariants = 0;
    for (const [path, file] of compressed.files) {
      const plain = Buffer.concat(file.body);
      if (!file.variants) continue;
      withVariants++;
      expect(gunzipSync(file.variants.gzip).equals(plain), path).toBe(true);
      expect(brotliDecompressSync(file.variants.br).equals(plain), path).toBe(true);
      expect(file.variants.gzip.length, path).toBeLessThan(file.size);
    }
    expect(withVariants).toBeGreaterThan(10);
    expect(compressed.files.get("/vls/v3/stations")?.variants).toBeDefined();
  });

  // Swagger UI is ~1.5 MB of script; the portal page holds a row per station.
  it("gives the portal's page, script and styles and the bundled Swagger UI variants too", () => {
    for (const path of ["/", "/docs/swagger-ui-bundle.js", "/docs/swagger-ui.css"]) {
      const file = compressed.files.get(path);
      expect(file?.size, path).toBeGreaterThan(MIN_COMPRESSED_SIZE);
      expect(file?.variants, path).toBeDefined();
      expect(
        gunzipSync(file?.variants?.gzip as Buffer).equals(Buffer.concat(file?.body ?? [])),
        path,
      ).toBe(true);
    }
  });

  // Every browser takes brotli: its variant of the big assets must be the smaller one.
  it("sends the Swagger UI's script and styles smaller as brotli than as gzip", () => {
    for (const path of ["/docs/swagger-ui-bundle.js", "/docs/swagger-ui.css"]) {
      const variants = compressed.files.get(path)?.variants;
      expect(variants?.br.length, path).toBeLessThan(variants?.gzip.length ?? 0);
    }
  });

  it("leaves small answers and the zip bundle as they are", () => {
    const station = compressed.files.get("/vls/v3/stations/dublin/42");
    expect(station?.size).toBeLessThan(MIN_COMPRESSED_SIZE);
    expect(station?.variants).toBeUndefined();
    const bundle = compressed.files.get("/download/velodata-static.zip");
    expect(bundle?.size).toBeGreaterThan(MIN_COMPRESSED_SIZE);
    expect(bundle?.variants).toBeUndefined();
  });

  it("keeps the release's id, paths and identity bytes", () => {
    expect(compressed.id).toBe(release.id);
    expect([...compressed.files.keys()]).toEqual([...release.files.keys()]);
    for (const [path, file] of compressed.files)
      expect(file.etag).toBe(release.files.get(path)?.etag);
  });

  it("compresses equal bytes at two paths once, both carrying the same variants", async () => {
    // GBFS serves each v2 feed at two paths; the fixtures' Dublin has them.
    const top = compressed.files.get("/contracts/dublin/gbfs/station_information.json");
    const v2 = compressed.files.get("/contracts/dublin/gbfs/v2/station_information.json");
    expect(top?.etag).toBe(v2?.etag);
    expect(top?.variants?.gzip).toBeDefined();
    expect(top?.variants?.gzip).toBe(v2?.variants?.gzip);
    expect(top?.variants?.br).toBe(v2?.variants?.br);
  });

  it("reuses the variants of the previous release for bytes that did not change", async () => {
    const again = await compressRelease(release, { budget: "refresh", previous: compressed });
    for (const [path, file] of again.files) expect(file, path).toBe(compressed.files.get(path));
  });
});

describe("compressBody", () => {
  // Over the 1 MiB piece size, so that the big bodies' streamed path is the one taken.
  const rows = Array.from({ length: 30_000 }, (_, index) =>
    Buffer.from(`{"number":${index},"name":"Station ${(index * 7919) % 10_007}"},`),
  );
  const whole = Buffer.concat(rows);

  it("compresses a big body in chunks to bytes that depend on its bytes alone", async () => {
    expect(whole.byteLength).toBeGreaterThan(1 << 20);
    const levels = { gzip: 1, brotli: 1 };
    const chunked = await compressBody(rows, levels);
    const halves = await compressBody(
      [whole.subarray(0, 777_777), whole.subarray(777_777)],
      levels,
    );
    expect(gunzipSync(chunked.gzip).equals(whole)).toBe(true);
    expect(brotliDecompressSync(chunked.br).equals(whole)).toBe(true);
    expect(chunked.gzip.equals(halves.gzip)).toBe(true);
    expect(chunked.br.equals(halves.br)).toBe(true);
    expect(chunked.gzip[9]).toBe(255);
  });

  it("keeps a big body's variants in shared memory, which V8 does not count as its heap's", async () => {
    // A server's minute of ArrayBuffers started markings of its whole heap back to back.
    const { gzip, br } = await compressBody(rows, { gzip: 1, brotli: 1 });
    expect(gzip.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(br.buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  const body = [Buffer.from('[{"name":"Rue de l’Église"}'), Buffer.from(`,${"1,".repeat(900)}1]`)];

  it("makes the same bytes every time, with no time and a fixed OS in the gzip header", async () => {
    const one = await compressBody(body, { gzip: 6, brotli: 5 });
    const two = await compressBody(body, { gzip: 6, brotli: 5 });
    expect(one.gzip.equals(two.gzip)).toBe(true);
    expect(one.br.equals(two.br)).toBe(true);
    expect([...one.gzip.subarray(4, 8)]).toEqual([0, 0, 0, 0]);
    expect(one.gzip[9]).toBe(255); // OS "unknown", whatever the platform
  });
});

describe("compressHere", () => {
  const small = (count: number) =>
    Array.from({ length: count }, (_, index) => Buffer.from(`{"number":${index},"bikes":3},`));

  it("makes compressBody's bytes at once, for a body of one chunk or many", async () => {
    for (const body of [small(400), [Buffer.concat(small(400))], small(1), [Buffer.alloc(0)]])
      for (const levels of [
        { gzip: 1, brotli: 1 },
        { gzip: 6, brotli: 5 },
      ]) {
        const here = compressHere(body, levels);
        const pooled = await compressBody(body, levels);
        expect(here.gzip.equals(pooled.gzip)).toBe(true);
        expect(here.br.equals(pooled.br)).toBe(true);
      }
  });

  it("joins each body into one kept buffer, grown for a bigger one, filled again", () => {
    for (const count of [5, 3000, 40]) {
      const made = compressHere(small(count), { gzip: 1, brotli: 1 });
      expect(gunzipSync(made.gzip).equals(Buffer.concat(small(count)))).toBe(true);
      expect(brotliDecompressSync(made.br).equals(Buffer.concat(small(count)))).toBe(true);
    }
  });

  it("refuses a body over SMALL_BODY, for the thread pool's streams", () => {
    const big = [Buffer.alloc(SMALL_BODY + 1, 0x20)];
    expect(() => compressHere(big, { gzip: 1, brotli: 1 })).toThrow(/bug: a body of 262145 bytes/);
    expect(() =>
      compressHere([Buffer.alloc(SMALL_BODY, 0x20)], { gzip: 1, brotli: 1 }),
    ).not.toThrow();
  });
});

/** A list's part deflated in one call: raw, ending on a full flush (see gzipOfList). */
const pieceOf = (bytes: Uint8Array, level: number): Buffer =>
  deflateRawSync(bytes, { level, finishFlush: constants.Z_FULL_FLUSH });

describe("gzipOfList", () => {
  const item = (index: number): Buffer =>
    Buffer.from(JSON.stringify({ number: index, name: `Station ${index} élan`, bikes: index % 7 }));
  const listOf = (items: readonly Buffer[]): Buffer =>
    Buffer.concat([Buffer.from("["), Buffer.from(items.join(",")), Buffer.from("]")]);

  it("assembles a list's gzip from its parts' pieces, each part's commas inside it", async () => {
    const parts = [0, 1, 2].map((part) =>
      Array.from({ length: 2000 + part * 10 }, (_, at) => item(part * 10_000 + at)),
    );
    const bytes = parts.map((items) => Buffer.from(items.join(",")));
    const pieces = await Promise.all(
      bytes.map(async (part) => ({
        piece: pieceOf(part, 1),
        crc: crc32(part),
        size: part.length,
      })),
    );
    const list = listOf(parts.flat());
    const gzipped = gzipOfList(pieces, list.length);
    // gunzip checks the CRC and the length in the trailer.
    expect(gunzipSync(gzipped).equals(list)).toBe(true);
    expect(gzipped.length).toBeLessThan(list.length / 3);
    // The same bytes every time, the gzip header fixed (no time, OS unknown).
    expect(gzipOfList(pieces, list.length).equals(gzipped)).toBe(true);
    expect([...gzipped.subarray(0, 10)]).toEqual([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 4, 255]);
    expect(gzipped.buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  it("gives an empty list, and a list of one part, whole", async () => {
    expect(gunzipSync(gzipOfList([], 2)).toString()).toBe("[]");
    const items = [item(1), item(2)];
    const list = listOf(items);
    const part = Buffer.from(items.join(","));
    const piece = pieceOf(part, 1);
    const one = { piece, crc: crc32(part), size: part.length };
    expect(gunzipSync(gzipOfList([one], list.length)).equals(list)).toBe(true);
  });
});

describe("contractListPieces", () => {
  // A list as a server holds it: `[`, each member, a comma between two, `]`, all apart.
  const chunksOf = (count: number): Buffer[] => {
    const chunks = [Buffer.from("[")];
    for (let at = 0; at < count; at++) {
      if (at > 0) chunks.push(Buffer.from(","));
      chunks.push(
        Buffer.from(JSON.stringify({ number: at, name: `Station ${at} élan`, bikes: at % 7 })),
      );
    }
    chunks.push(Buffer.from("]"));
    return chunks;
  };

  // ~60 KB and ~2.4 MB (streamed in pieces, a piece's edge inside a member).
  it.each([1000, 40_000])(
    "compresses, in one pass over %i members, its items into a deflate call's piece and a brotli piece",
    async (count) => {
      const body = chunksOf(count);
      const items = Buffer.concat(body.slice(1, -1));
      const levels = { gzip: 1, brotli: 1 };
      const { gzip, br } = await contractListPieces(body, levels);
      expect(gzip.piece.equals(pieceOf(items, levels.gzip))).toBe(true);
      expect(gzip.crc).toBe(crc32(items));
      expect(gzip.size).toBe(items.length);
      const list = Buffer.concat(body);
      expect(gunzipSync(gzipOfList([gzip], list.length)).equals(list)).toBe(true);
      const brotli = brotliOfList([br]);
      expect(brotliDecompressSync(brotli).equals(list)).toBe(true);
      // Within 1% of the list compressed whole at the same quality.
      expect(brotli.length).toBeLessThan((await compressBody(body, levels)).br.length * 1.01);
    },
  );
});

describe("compressEach with list joins", () => {
  // A contract's list of `count` stations, and the list of all joined of some.
  const itemsOf = (contract: string, count: number): string =>
    Array.from({ length: count }, (_, at) => `{"contract":"${contract}","number":${at}}`).join(",");
  const list = (...items: string[]): ReleaseFile =>
    releaseFile([Buffer.from(`[${items.join(",")}]`)], JSON_TYPE, "dynamic");

  /**
   * What compressEach asks for each path: its body compressed whole (at which brotli quality), as
   * pieces kept (under its own key?), or joined (of whose pieces, to its size?).
   */
  async function asked(
    files: Map<string, ReleaseFile>,
    layouts: ListLayout[] = [{ all: "/all", contracts: ["/lyon", "/paris"] }],
  ): Promise<Record<string, string>> {
    const keyOf = (path: string | undefined): string => {
      const file = files.get(path as string) as ReleaseFile;
      const levels = levelsFor(file, "build");
      return `${file.etag} ${levels.gzip} ${levels.brotli}`;
    };
    // A list's own task's key, or its pieces' alone (a list without variants of its own).
    const pathOf = (key: string) =>
      [...files].find(([, file]) => key.startsWith(`${file.etag} `))?.[0];
    const said = new Map<string, string>();
    await compressEach(
      files,
      "build",
      async (_, levels) => `whole ${levels.brotli}`,
      (path, _, result) => said.set(path, result),
      undefined,
      {
        layouts,
        pieces: async (_, levels, paths, key, pieceLevels) =>
          `pieces ${levels.brotli}/${pieceLevels.brotli} ${paths.length === 0 || key === keyOf(paths[0])}`,
        join: async (keys, size, paths) =>
          `joined ${keys.map(pathOf).join(" ")} ${size === files.get(paths[0] as string)?.size}`,
      },
    );
    return Object.fromEntries(said);
  }

  it("joins a list of all of its contracts' pieces, after them, each compressed once", async () => {
    const lyon = itemsOf("lyon", 2000);
    const paris = itemsOf("paris", 3000);
    const files = new Map([
      ["/all", list(lyon, paris)],
      ["/lyon", list(lyon)],
      ["/paris", list(paris)],
      ["/feed", list(itemsOf("feed", 3000))],
    ]);
    expect(files.get("/lyon")?.size).toBeGreaterThan(64 << 10); // the build's big, joinable levels
    expect(await asked(files)).toEqual({
      "/all": "joined /lyon /paris true",
      "/lyon": "pieces 1/1 true",
      "/paris": "pieces 1/1 true",
      "/feed": "whole 1",
    });
  });

  it("joins a list of all as soon as its contracts' pieces are made, while other bodies compress", async () => {
    const lyon = itemsOf("lyon", 2000);
    const paris = itemsOf("paris", 3000);
    const files = new Map([
      ["/all", list(lyon, paris)],
      ["/lyon", list(lyon)],
      ["/paris", list(paris)],
      ["/feed", list(itemsOf("feed", 4000))],
    ]);
    // The feed's compression ends only once the list of all is joined: a join that waited for
    // every body would wait forever.
    let joined: () => void = () => {};
    const join = new Promise<void>((resolve) => {
      joined = resolve;
    });
    const said: string[] = [];
    await compressEach(
      files,
      "build",
      async (_, __, paths) => {
        await join;
        return `whole ${paths}`;
      },
      (path, _, result) => said.push(`${path}: ${result}`),
      undefined,
      {
        layouts: [{ all: "/all", contracts: ["/lyon", "/paris"] }],
        pieces: async () => "pieces",
        join: async () => {
          joined();
          return "joined";
        },
      },
    );
    expect(said.sort()).toEqual([
      "/all: joined",
      "/feed: whole /feed",
      "/lyon: pieces",
      "/paris: pieces",
    ]);
  });

  it("joins a list of all of small contracts' lists too, their pieces at its levels", async () => {
    const small = itemsOf("lyon", 200); // under 64 KiB: the build compresses it harder
    const tiny = itemsOf("nancy", 2); // under 1 KiB: no variants of its own
    const paris = itemsOf("paris", 3000);
    const files = new Map([
      ["/all", list(small, paris, tiny)],
      ["/lyon", list(small)],
      ["/paris", list(paris)],
      ["/nancy", list(tiny)],
    ]);
    const layout = { all: "/all", contracts: ["/lyon", "/paris", "/nancy"] };
    expect(await asked(files, [layout])).toEqual({
      "/all": "joined /lyon /paris /nancy true",
      "/lyon": "pieces 5/1 true",
      "/paris": "pieces 1/1 true",
    });
  });

  it("joins a contract's list into one list of all only", async () => {
    const [lyon, paris, nancy] = ["lyon", "paris", "nancy"].map((name) => itemsOf(name, 3000));
    const files = new Map([
      ["/all", list(lyon as string, paris as string)],
      ["/other", list(lyon as string, nancy as string)],
      ["/lyon", list(lyon as string)],
      ["/paris", list(paris as string)],
      ["/nancy", list(nancy as string)],
    ]);
    const layouts = [
      { all: "/all", contracts: ["/lyon", "/paris"] },
      { all: "/other", contracts: ["/lyon", "/nancy"] },
    ];
    expect(await asked(files, layouts)).toEqual({
      "/all": "joined /lyon /paris true",
      "/other": "whole 1",
      "/lyon": "pieces 1/1 true",
      "/paris": "pieces 1/1 true",
      "/nancy": "whole 1",
    });
  });

  it("compresses a list of all whole when it has the bytes of a contract's (a network of one)", async () => {
    const lyon = itemsOf("lyon", 3000);
    const files = new Map([
      ["/all", list(lyon)],
      ["/lyon", list(lyon)],
    ]);
    const one = { all: "/all", contracts: ["/lyon"] };
    expect(await asked(files, [one])).toEqual({ "/all": "whole 1", "/lyon": "whole 1" });
  });
});

describe("KeptPieces", () => {
  it("joins a list of all of the pieces it kept, then lets them go", async () => {
    const lists = ["lyon", "paris"].map((contract) =>
      Buffer.from(JSON.stringify(Array(3000).fill({ contract, bikes: 3 }))),
    );
    const kept = new KeptPieces();
    const levels = { gzip: 1, brotli: 1 };
    for (const [index, list] of lists.entries()) {
      const variants = await kept.compress([list], list.length, levels, `c${index}`);
      expect(brotliDecompressSync(variants.br).equals(list)).toBe(true);
      expect(gunzipSync(variants.gzip).equals(list)).toBe(true);
    }
    const all = Buffer.from(`[${lists.map((list) => list.subarray(1, -1).toString()).join(",")}]`);
    const joined = kept.join(["c0", "c1"], all.length);
    expect(brotliDecompressSync(joined.br).equals(all)).toBe(true);
    expect(gunzipSync(joined.gzip).equals(all)).toBe(true);
    expect(() => kept.join(["c0"], lists[0]?.length ?? 0)).toThrow(/no pieces kept/);
  });

  it("makes a list's own variants at its levels and its pieces at the list of all's", async () => {
    const list = Buffer.from(JSON.stringify(Array(300).fill({ contract: "lyon", bikes: 3 })));
    const kept = new KeptPieces();
    const own = { gzip: 6, brotli: 5 };
    const variants = await kept.compress([list], list.length, own, "lyon", { gzip: 1, brotli: 1 });
    const whole = await compressBody([list], own);
    expect(variants.br.equals(whole.br) && variants.gzip.equals(whole.gzip)).toBe(true);
    // A list of all of a size its parts do not make is not theirs.
    expect(() => kept.join(["lyon"], list.length + 1)).toThrow(/joined of parts/);
    const joined = kept.join(["lyon"], list.length);
    expect(brotliDecompressSync(joined.br).equals(list)).toBe(true);
  });
});
