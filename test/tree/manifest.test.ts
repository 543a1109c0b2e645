// The manifest's lookups: by binary search in its sorted paths while few are asked, by an index after.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Release, ReleaseFile } from "../../src/publish/release.js";
import {
  type Manifest,
  manifestOf,
  otherManifestFormat,
  patchedManifest,
  readManifest,
  writeManifest,
} from "../../src/tree/manifest.js";
import { tempDir } from "../helpers.js";
import { tmpfsMount } from "../tmpfs.js";
import { manifestHead } from "./tree-helpers.js";

const fileOf = (text: string): ReleaseFile => ({
  body: [Buffer.from(text)],
  size: text.length,
  contentType: "application/json",
  freshness: "dynamic",
  etag: `"${text}"`,
});

// Code-unit order puts "/a/B" before "/a/a" and "/a/b" before "/a/b/c" and "/a/bé".
const SPECIAL = ["/a/a", "/a/b", "/a/B", "/a/b/c", "/a/bé", "/z", "/", "/a/a1"];
// Many: the first lookups (half as many as the paths) are binary searches.
const PATHS = [...SPECIAL, ...Array.from({ length: 2000 }, (_, at) => `/s/${(at * 7919) % 2003}`)];

function release(paths: readonly string[] = PATHS): Release {
  return {
    id: "r",
    generatedAt: new Date(0),
    files: new Map(paths.map((path, at) => [path, fileOf(`f${at}`)])),
    counts: { contracts: 0, stations: 0, parkings: 0 },
    contracts: new Map(),
  };
}

describe("manifest lookups", () => {
  it("finds every path at its place and no other, before and after it indexes them", async () => {
    const path = join(await tempDir("velodata-manifest-"), "manifest.json");
    writeManifest(path, manifestOf(release()));
    const manifest = readManifest(path)?.manifest;
    if (!manifest) throw new Error("no manifest read");
    expect([...manifest.paths]).toEqual([...PATHS].sort());
    // The special ones first (binary searches), then all (the index).
    for (const asked of [...SPECIAL, ...PATHS]) {
      const at = PATHS.indexOf(asked);
      expect(manifest.positionOf(asked)).toBe(manifest.paths.indexOf(asked));
      expect(manifest.entry(asked)?.etag).toBe(`"f${at}"`);
      for (const missing of ["/a", "/a/c", "", "/zz", "/a/b/"])
        expect(manifest.entry(missing)).toBeUndefined();
    }
  });

  it("takes a caller's hint of a position only where it holds that path", async () => {
    const path = join(await tempDir("velodata-manifest-"), "manifest.json");
    writeManifest(path, manifestOf(release()));
    const manifest = readManifest(path)?.manifest;
    if (!manifest) throw new Error("no manifest read");
    const place = (asked: string) => manifest.paths.indexOf(asked);
    // Right, wrong (another path's place), out of range: the answer is the path's place.
    expect(manifest.positionOf("/a/bé", place("/a/bé"))).toBe(place("/a/bé"));
    expect(manifest.positionOf("/a/b/c", place("/z"))).toBe(place("/a/b/c"));
    expect(manifest.positionOf("/s/5", manifest.paths.length + 3)).toBe(place("/s/5"));
    // A path it does not hold is not found at a hinted place, nor later once positions are kept.
    expect(manifest.positionOf("/a/c", place("/a/b"))).toBe(-1);
    expect(manifest.positionOf("/a/c")).toBe(-1);
    // Asked again, wrongly hinted: the place found first stands.
    expect(manifest.positionOf("/a/b/c", place("/a/a"))).toBe(place("/a/b/c"));
    expect(manifest.entry("/a/b/c")?.etag).toBe(`"f${PATHS.indexOf("/a/b/c")}"`);
  });
});

describe("the manifest on disk", () => {
  async function written(): Promise<{ path: string; bytes: Buffer }> {
    const path = join(await tempDir("velodata-manifest-"), "manifest.json");
    writeManifest(path, manifestOf(release()));
    return { path, bytes: await readFile(path) };
  }

  /** The file with its first line's fields changed by `change`, the rest of its bytes as they are. */
  function withFields(bytes: Buffer, change: (fields: Record<string, unknown>) => void): Buffer {
    const end = bytes.indexOf("\n");
    const head = JSON.parse(bytes.toString("utf8", 0, end));
    change(head.value);
    return Buffer.concat([Buffer.from(JSON.stringify(head)), bytes.subarray(end)]);
  }

  it("keeps the paths and ETags as lines of UTF-8 after its numbers, read back in order", async () => {
    const { path, bytes } = await written();
    const fields = await manifestHead(path);
    expect(fields).toMatchObject({ format: 4, release: "r", types: ["application/json"] });
    const sorted = [...PATHS].sort();
    const etags = sorted.map((asked) => `"f${PATHS.indexOf(asked)}"`);
    const lines = `${sorted.join("\n")}${etags.join("\n")}`;
    expect(fields.lines).toEqual({
      paths: Buffer.byteLength(sorted.join("\n")),
      etags: Buffer.byteLength(etags.join("\n")),
    });
    expect(bytes.subarray(bytes.length - Buffer.byteLength(lines)).toString()).toBe(lines);
    const manifest = readManifest(path)?.manifest;
    expect(manifest?.paths).toEqual(sorted);
    expect(manifest?.entry("/a/bé")?.etag).toBe(`"f${PATHS.indexOf("/a/bé")}"`);
    // Read, then written again as it was read: the same bytes.
    writeManifest(path, manifest as Manifest);
    expect((await readFile(path)).equals(bytes)).toBe(true);
  });

  it("is patched into a new manifest, the one read left as it was", async () => {
    const { path } = await written();
    const read = readManifest(path)?.manifest as Manifest;
    const html = { ...fileOf("<p>"), contentType: "text/html; charset=utf-8" };
    const patched = patchedManifest(read, { id: "r2", generatedAt: new Date(1) }, [
      { path: "/a/b", file: html },
    ]);
    expect(patched?.entry("/a/b")).toMatchObject({ etag: '"<p>"', type: html.contentType });
    expect(read.entry("/a/b")).toMatchObject({
      etag: `"f${PATHS.indexOf("/a/b")}"`,
      type: "application/json",
    });
  });

  it("reads as none when cut short, when a column does not align with the paths, or of the older format", async () => {
    const { path, bytes } = await written();
    await writeFile(path, bytes.subarray(0, -1));
    expect(readManifest(path)).toBeNull();
    // The last ETag lost, its bytes and the count of them both: one ETag fewer than paths.
    const last = bytes.lastIndexOf("\n");
    const lost = withFields(bytes.subarray(0, last), (fields) => {
      const lines = fields.lines as { etags: number };
      lines.etags -= bytes.length - last;
    });
    await writeFile(path, lost);
    expect(readManifest(path)).toBeNull();
    // An older velodata's manifest: one line of JSON.
    const older = { ...(await manifestHead(path)), format: 3, paths: "/", etags: '"e"' };
    await writeFile(path, JSON.stringify(older));
    expect(readManifest(path)).toBeNull();
    expect(otherManifestFormat(path)).toBe(3);
    await writeFile(path, bytes);
    expect(readManifest(path)?.manifest.paths).toHaveLength(PATHS.length);
    expect(otherManifestFormat(path)).toBeNull();
  });
});

// Smaller than the many paths' manifest (~0.6 MB).
const disk = await tmpfsMount("400k");

describe("the manifest written in pieces", () => {
  // More paths than one piece of text holds (8,192), some ETags with siblings.
  const MANY = Array.from({ length: 20_000 }, (_, at) => `/many/${at}`).sort();
  function manyRelease(): Release {
    const made = release(MANY);
    MANY.forEach((path, at) => {
      const file = made.files.get(path) as ReleaseFile;
      if (at % 3 === 0)
        (made.files as Map<string, ReleaseFile>).set(path, {
          ...file,
          variants: { gzip: Buffer.alloc(at % 7), br: Buffer.alloc(at % 5) },
        });
    });
    return made;
  }

  it("holds every path and ETag, its siblings' sizes, read back the same", async () => {
    const path = join(await tempDir("velodata-manifest-"), "manifest.json");
    const made = manyRelease();
    writeManifest(path, manifestOf(made));
    const files = MANY.map((at) => made.files.get(at) as ReleaseFile);
    const lines = `${MANY.join("\n")}${files.map((file) => file.etag).join("\n")}`;
    const bytes = await readFile(path);
    expect(bytes.subarray(bytes.length - lines.length).toString()).toBe(lines);
    const manifest = readManifest(path)?.manifest;
    expect(manifest?.paths).toEqual(MANY);
    // The last piece's: sorted, "/many/9999" is among the last paths.
    const at = MANY.indexOf("/many/9999");
    expect(at).toBeGreaterThan(16_384);
    const file = made.files.get("/many/9999") as ReleaseFile;
    expect(manifest?.entry("/many/9999")).toMatchObject({ etag: `"f${at}"`, size: file.size });
    expect(manifest?.entry("/many/9999")?.variants?.br.size).toBe(file.variants?.br.byteLength);
    MANY.forEach((asked, position) => {
      const entry = manifest?.entry(asked);
      const own = files[position] as ReleaseFile;
      expect([entry?.size, entry?.variants?.gzip.size ?? -1]).toEqual([
        own.size,
        own.variants?.gzip.byteLength ?? -1,
      ]);
    });
  });

  it.skipIf(!disk)(
    "leaves the manifest before it whole, and no partial file, when the disk is full",
    async () => {
      if (!disk) return;
      const path = join(disk, "manifest.json");
      writeManifest(path, manifestOf(release()));
      const before = await readFile(path, "utf8");
      expect(() => writeManifest(path, manifestOf(manyRelease()))).toThrow(
        expect.objectContaining({ code: "ENOSPC" }),
      );
      expect(await readFile(path, "utf8")).toBe(before);
      expect(await readdir(disk)).toEqual(["manifest.json"]);
    },
  );
});
