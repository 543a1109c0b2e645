// The manifest's lookups: by binary search in its sorted paths while few are asked, by an index after.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Release, ReleaseFile } from "../../src/publish/release.js";
import { manifestOf, readManifest, writeManifest } from "../../src/tree/manifest.js";
import { tempDir } from "../helpers.js";

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

function release(): Release {
  return {
    id: "r",
    generatedAt: new Date(0),
    files: new Map(PATHS.map((path, at) => [path, fileOf(`f${at}`)])),
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
  async function written(): Promise<{ path: string; text: string }> {
    const path = join(await tempDir("velodata-manifest-"), "manifest.json");
    writeManifest(path, manifestOf(release()));
    return { path, text: await readFile(path, "utf8") };
  }

  it("keeps the paths and ETags as lines of one string each, read back in order", async () => {
    const { path, text } = await written();
    const onDisk = JSON.parse(text);
    expect(onDisk.paths).toBe([...PATHS].sort().join("\n"));
    expect(typeof onDisk.etags).toBe("string");
    const manifest = readManifest(path)?.manifest;
    expect(manifest?.paths).toEqual([...PATHS].sort());
    expect(manifest?.entry("/a/bé")?.etag).toBe(`"f${PATHS.indexOf("/a/bé")}"`);
  });

  it("reads as none when a column does not align with the paths, or is of the older format", async () => {
    const { path, text } = await written();
    const onDisk = JSON.parse(text);
    const etagLost = { ...onDisk, etags: onDisk.etags.slice(onDisk.etags.indexOf("\n") + 1) };
    await writeFile(path, JSON.stringify(etagLost));
    expect(readManifest(path)).toBeNull();
    const older = {
      ...onDisk,
      format: 2,
      paths: onDisk.paths.split("\n"),
      etags: onDisk.etags.split("\n"),
    };
    await writeFile(path, JSON.stringify(older));
    expect(readManifest(path)).toBeNull();
    await writeFile(path, JSON.stringify(onDisk));
    expect(readManifest(path)?.manifest.paths).toHaveLength(PATHS.length);
  });
});
