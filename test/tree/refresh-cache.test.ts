// The cron refresh's state files beside the tree: written beside their place and renamed in, so
// that a run killed in between leaves the last state whole, and its leftover goes at the next run.

import { statSync } from "node:fs";
import { readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CacheSeen, cacheSeen } from "../../src/tree/cache-seen.js";
import {
  readRefreshCache,
  stageRefreshCache,
  writeRefreshCache,
} from "../../src/tree/refresh-cache.js";
import { tempDir } from "../helpers.js";

describe("the refresh state's files", () => {
  it("stay the last one written until a staged one is committed; leftovers of a killed run go", async () => {
    const folder = await tempDir();
    const first = writeRefreshCache(folder, { minute: 1 });
    expect(readRefreshCache(folder)?.checksum).toBe(first);

    // Staged, as a run does while its variants are made, then killed before the rename.
    const killed = stageRefreshCache(folder, { minute: 2 });
    expect(killed).not.toBeNull();
    expect(readRefreshCache(folder)?.value).toEqual({ minute: 1 });
    // Another process's, killed the same way (the lock makes any other one stale).
    await writeFile(join(folder, "refresh-cache.json.tmp-999999"), "{}");
    writeRefreshCache(folder, { other: true }, "refresh-static.json");
    expect((await readdir(folder)).filter((name) => name.includes(".tmp-"))).toHaveLength(2);

    const next = stageRefreshCache(folder, { minute: 4 });
    expect(readRefreshCache(folder)?.value).toEqual({ minute: 1 });
    expect(next?.commit()).toBe(true);
    expect(readRefreshCache(folder)).toMatchObject({
      value: { minute: 4 },
      checksum: next?.checksum,
    });
    expect((await readdir(folder)).sort()).toEqual(["refresh-cache.json", "refresh-static.json"]);
  });

  it("discards a staged file without touching the last state", async () => {
    const folder = await tempDir();
    writeRefreshCache(folder, { minute: 1 });
    stageRefreshCache(folder, { minute: 2 })?.discard();
    expect(readRefreshCache(folder)?.value).toEqual({ minute: 1 });
    expect(await readdir(folder)).toEqual(["refresh-cache.json"]);
  });

  it("reads back the value and each line as written, lines of several MB in all included", async () => {
    const folder = await tempDir();
    // ~5 MB with two- and four-byte characters: the file is written from several buffers.
    const lines = Array.from({ length: 20_000 }, (_, index) =>
      JSON.stringify([{ number: index, name: `Gare Saint-Lazare ${"é🚲".repeat(index % 50)}` }]),
    );
    const sum = writeRefreshCache(folder, { stations: lines.length }, "refresh-static.json", lines);
    const read = readRefreshCache(folder, "refresh-static.json");
    expect(read?.checksum).toBe(sum);
    expect(read?.value).toEqual({ stations: lines.length });
    for (const index of [0, 1, 4_999, 12_345, 19_999]) expect(read?.line(index)).toBe(lines[index]);
    expect(read?.line(20_000)).toBeUndefined();
  });
});

describe("a cache file seen before", () => {
  it("is not hashed again while it is as seen long enough after its change, and is once it changed", async () => {
    const folder = await tempDir();
    const name = "refresh-static.json";
    writeRefreshCache(folder, { stations: 2 }, name, ["a", "b"]);
    const path = join(folder, name);
    // A checksum line that is not the rest's SHA-1, the file seen as it is then.
    const bytes = await readFile(path);
    await writeFile(path, Buffer.concat([Buffer.from("0".repeat(40)), bytes.subarray(40)]));
    const seen = cacheSeen(folder, name) as CacheSeen;
    expect(readRefreshCache(folder, name)).toBeNull();
    // Seen in the tick of its change: another change in it would leave the same times.
    expect(readRefreshCache(folder, name, seen)).toBeNull();
    const later = { ...seen, at: Math.max(seen.mtimeMs, seen.ctimeMs) + 2000 };
    expect(readRefreshCache(folder, name, later)).toMatchObject({ value: { stations: 2 } });
    // Changed in place, the same size, as seen with the mtime it has now (an edit that kept it):
    // its ctime tells, hashed again.
    const trusted = await readFile(path);
    const changed = Buffer.from(trusted);
    changed[changed.length - 1] = "c".charCodeAt(0);
    await writeFile(path, changed);
    const { mtimeMs, ino, size } = statSync(path);
    expect([ino, size]).toEqual([seen.ino, seen.size]);
    const keptMtime = { ...later, mtimeMs, at: Math.max(mtimeMs, seen.ctimeMs) + 2000 };
    expect(readRefreshCache(folder, name, keptMtime)).toBeNull();
    await writeFile(path, trusted);
    // Replaced by a copy of itself, byte for byte (as a run replaces it): hashed again.
    await writeFile(`${path}.copy`, await readFile(path));
    await rename(`${path}.copy`, path);
    expect(readRefreshCache(folder, name, later)).toBeNull();
  });
});
