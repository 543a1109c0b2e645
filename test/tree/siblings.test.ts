// The `.gz`/`.br` siblings of the tree: written with their file, replaced and deleted with it, listed in the manifest.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { brotliOfList } from "../../src/publish/brotli-list.js";
import { compressRelease, contractListPieces, levelsFor } from "../../src/publish/compress.js";
import { writeSiblingsOffThread } from "../../src/publish/compression-worker.js";
import {
  makeRelease,
  type Release,
  type ReleaseFile,
  releaseFile,
} from "../../src/publish/release.js";
import { layoutOf } from "../../src/tree/layout.js";
import { readTree } from "../../src/tree/read-tree.js";
import { updateTree } from "../../src/tree/update-tree.js";
import { variantsOnDisk } from "../../src/tree/variants-on-disk.js";
import { writeTree } from "../../src/tree/write-tree.js";
import { tempDir } from "../helpers.js";

const JSON_TYPE = "application/json";
const big = (text: string) => Buffer.from(JSON.stringify(Array(400).fill(text)));

async function releaseOf(files: Record<string, Buffer>): Promise<Release> {
  return compressRelease(plainRelease(files), { budget: "refresh" });
}

function plainRelease(files: Record<string, Buffer>): Release {
  const map = new Map(
    Object.entries(files).map(([path, body]) => [path, releaseFile([body], JSON_TYPE, "dynamic")]),
  );
  return makeRelease(map, { contracts: 0, stations: 0, parkings: 0 }, new Date(0));
}

let first: Release;
beforeAll(async () => {
  first = await releaseOf({
    "/vls/v3/stations": big("a"),
    "/vls/v3/stations/lyon": big("lyon"),
    "/vls/v3/stations/lyon/1": Buffer.from("{}"),
  });
});

const gunzipped = (path: string) => gunzipSync(readFileSync(path)).toString();
const unbrotli = (path: string) => brotliDecompressSync(readFileSync(path)).toString();

describe("precompressed siblings", () => {
  it("are written beside every file worth compressing, and listed in the manifest", async () => {
    const out = join(await tempDir(), "out");
    await writeTree(first, out);
    const list = join(out, "vls/v3/stations.json");
    expect(gunzipped(`${list}.gz`)).toBe(big("a").toString());
    expect(unbrotli(`${list}.br`)).toBe(big("a").toString());
    // a small answer fits one packet: no siblings
    expect(existsSync(join(out, "vls/v3/stations/lyon/1.json.gz"))).toBe(false);
    const entry = readTree(out).manifest?.files["/vls/v3/stations"];
    const file = first.files.get("/vls/v3/stations");
    expect(entry?.variants).toEqual({
      gzip: { etag: `${file?.etag.slice(0, -1)}-gzip"`, size: file?.variants?.gzip.byteLength },
      br: { etag: `${file?.etag.slice(0, -1)}-br"`, size: file?.variants?.br.byteLength },
    });
    expect(entry?.variants?.gzip.size).toBe(readFileSync(`${list}.gz`).byteLength);
  });

  it("do not hold back the files: every file's own bytes are written while the variants are made", async () => {
    const out = join(await tempDir(), "out");
    const plain = plainRelease({
      "/vls/v3/stations": big("c"),
      "/vls/v3/stations/lyon/1": Buffer.from("{}"),
    });
    const releases = layoutOf(out).releases;
    const seen: { plain: boolean; body: boolean; gzip: boolean }[] = [];
    let start = () => {};
    await writeTree(plain, out, {
      compress: (siblings) =>
        new Promise((resolve, reject) => {
          start = () =>
            writeSiblingsOffThread(plain.files, "refresh", siblings).then(resolve, reject);
        }),
      onProgress: (done, total) => {
        if (done < total) return;
        // Every body is written before the variants are ready: a writer that waited for them
        // to write the list would never get here, and this test would time out.
        const [name] = readdirSync(releases);
        const tree = join(releases, `${name}/tree`);
        const list = join(tree, "vls/v3/stations.json");
        seen.push({
          plain: existsSync(join(tree, "vls/v3/stations/lyon/1.json")),
          body: existsSync(list),
          gzip: existsSync(`${list}.gz`),
        });
        start();
      },
    });
    expect(seen).toEqual([{ plain: true, body: true, gzip: false }]);
    const list = join(out, "vls/v3/stations.json");
    expect(readFileSync(list, "utf8")).toBe(big("c").toString());
    expect(gunzipped(`${list}.gz`)).toBe(big("c").toString());
    expect(readTree(out).manifest?.files["/vls/v3/stations"]?.variants?.br.size).toBe(
      readFileSync(`${list}.br`).byteLength,
    );
  });

  it("leave the served tree as it was when the variants fail", async () => {
    const out = join(await tempDir(), "out");
    await writeTree(first, out);
    // With a file to write first, the failure comes while the writer is not yet waiting for it.
    const plain = plainRelease({
      "/vls/v3/stations": big("b"),
      "/vls/v3/stations/lyon/1": Buffer.from("{}"),
    });
    const compress = () => Promise.reject(new Error("compression failed"));
    await expect(writeTree(plain, out, { compress })).rejects.toThrow(/compression failed/);
    expect(unbrotli(join(out, "vls/v3/stations.json.br"))).toBe(big("a").toString());
    expect(readdirSync(layoutOf(out).releases)).toHaveLength(1);
  });

  it("made while the files are written are listed in the manifest by their sizes", async () => {
    const out = join(await tempDir(), "out");
    const plain = plainRelease({
      "/vls/v3/stations": big("d"),
      "/vls/v3/stations/lyon": big("lyon-d"),
    });
    await writeTree(plain, out, {
      compress: (siblings) => writeSiblingsOffThread(plain.files, "refresh", siblings),
    });
    const manifest = readTree(out).manifest;
    for (const file of ["vls/v3/stations.json", "vls/v3/stations/lyon.json"]) {
      const entry = manifest?.files[`/${file.replace(/\.json$/, "")}`];
      expect(gunzipped(join(out, `${file}.gz`))).toBe(readFileSync(join(out, file), "utf8"));
      expect(entry?.variants?.gzip.size).toBe(readFileSync(join(out, `${file}.gz`)).byteLength);
      expect(entry?.variants?.br.size).toBe(readFileSync(join(out, `${file}.br`)).byteLength);
    }
  });

  it("of a list of all stations are made of its contracts' lists, in this thread too", async () => {
    const out = join(await tempDir(), "out");
    const items = (text: string) => JSON.stringify(Array(400).fill(text)).slice(1, -1);
    const plain = plainRelease({
      "/vls/v3/stations": Buffer.from(`[${items("lyon")},${items("paris")}]`),
      "/vls/v3/stations/lyon": Buffer.from(`[${items("lyon")}]`),
      "/vls/v3/stations/paris": Buffer.from(`[${items("paris")}]`),
    });
    const contracts = ["/vls/v3/stations/lyon", "/vls/v3/stations/paris"];
    const layouts = [{ all: "/vls/v3/stations", contracts }];
    await writeTree(plain, out, {
      compress: (siblings) => writeSiblingsOffThread(plain.files, "refresh", siblings, layouts),
    });
    const list = join(out, "vls/v3/stations.json");
    expect(gunzipped(`${list}.gz`)).toBe(readFileSync(list, "utf8"));
    expect(unbrotli(`${list}.br`)).toBe(readFileSync(list, "utf8"));
    // Joined of the contracts' pieces, not compressed whole.
    const pieces = await Promise.all(
      contracts.map((path) => {
        const file = plain.files.get(path) as ReleaseFile;
        return contractListPieces(file.body, levelsFor(file, "refresh"));
      }),
    );
    expect(readFileSync(`${list}.br`).equals(brotliOfList(pieces.map(({ br }) => br)))).toBe(true);
  });

  it("follow their file at a refresh: replaced, dropped when no longer worth it, deleted with it", async () => {
    const out = join(await tempDir(), "out");
    await writeTree(first, out);
    const next = await releaseOf({
      "/vls/v3/stations": big("b"),
      "/vls/v3/stations/lyon": Buffer.from("[]"),
    });
    await updateTree(next, out);
    const root = join(out, "vls/v3/stations");
    expect(gunzipped(`${root}.json.gz`)).toBe(big("b").toString());
    expect(unbrotli(`${root}.json.br`)).toBe(big("b").toString());
    expect(existsSync(`${root}/lyon.json.gz`)).toBe(false);
    expect(existsSync(`${root}/lyon.json.br`)).toBe(false);
    expect(readTree(out).manifest?.files["/vls/v3/stations/lyon"]?.variants).toBeUndefined();
  });

  it("of a file removed from the release are deleted with it", async () => {
    const out = join(await tempDir(), "out");
    await writeTree(first, out);
    await updateTree(await releaseOf({ "/vls/v3/stations": big("a") }), out);
    expect(existsSync(join(out, "vls/v3/stations/lyon.json"))).toBe(false);
    expect(existsSync(join(out, "vls/v3/stations/lyon.json.gz"))).toBe(false);
    expect(existsSync(join(out, "vls/v3/stations/lyon.json.br"))).toBe(false);
  });

  it("changed behind velodata's back are repaired; after an interruption strays are deleted", async () => {
    const out = join(await tempDir(), "out");
    await writeTree(first, out);
    const list = join(out, "vls/v3/stations.json");
    await writeFile(`${list}.gz`, "not gzip");
    expect((await updateTree(first, out)).repaired).toBe(1);
    expect(gunzipped(`${list}.gz`)).toBe(big("a").toString());

    await writeFile(join(out, "vls/v3/stations/lyon/1.json.br"), "stray");
    await writeFile(`${list}.br`, "not brotli");
    await writeFile(readTree(out).release.dirty, "{}");
    expect((await updateTree(first, out)).verified).toBe(true);
    expect(unbrotli(`${list}.br`)).toBe(big("a").toString());
    expect(existsSync(join(out, "vls/v3/stations/lyon/1.json.br"))).toBe(false);
  });

  it("are read back for unchanged files, so that a refresh compresses only what changed", async () => {
    const out = join(await tempDir(), "out");
    await writeTree(first, out);
    const previous = variantsOnDisk(first, readTree(out));
    const kept = previous.files.get("/vls/v3/stations");
    expect(
      kept?.variants?.gzip.equals(first.files.get("/vls/v3/stations")?.variants?.gzip as Buffer),
    ).toBe(true);
    // a sibling changed on disk is not trusted
    await writeFile(join(out, "vls/v3/stations.json.gz"), "x");
    expect(variantsOnDisk(first, readTree(out)).files.has("/vls/v3/stations")).toBe(false);
  });
});
