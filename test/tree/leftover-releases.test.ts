// What a stopped build leaves in the store goes: at the next build, and at each refresh.
import { mkdir, readdir, rename, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Release } from "../../src/publish/release.js";
import { layoutOf } from "../../src/tree/layout.js";
import { removeLeftoverReleases } from "../../src/tree/leftover-releases.js";
import { writeTree } from "../../src/tree/write-tree.js";
import { tempDir } from "../helpers.js";
import { fixtureRelease } from "../publish/publish-helpers.js";

let release: Release;
beforeAll(async () => {
  release = await fixtureRelease();
});

/** A folder of a few files where a stopped build would have left one. */
async function leave(folder: string): Promise<void> {
  await mkdir(join(folder, "tree", "vls"), { recursive: true });
  await writeFile(join(folder, "tree", "vls", "contracts.json"), "[");
}

describe("a stopped build's folders", () => {
  it("go at the next build: in releases/, and in removing/ (stopped while removing)", async () => {
    const out = join(await tempDir(), "out");
    await writeTree(release, out);
    const { store, releases } = layoutOf(out);
    await leave(join(releases, "mzz0-abcdef"));
    await leave(join(store, "removing", "mzz1-abcdef"));
    await writeTree(release, out);
    expect(await readdir(releases)).toHaveLength(1);
    expect(await readdir(join(store, "removing")).catch(() => [])).toEqual([]);
  });

  it("go at a refresh: in releases/ at once, in removing/ once older than a live build's removal", async () => {
    const out = join(await tempDir(), "out");
    await writeTree(release, out);
    const layout = layoutOf(out);
    await leave(join(layout.releases, "mzz0-abcdef"));
    // A release written hours ago, moved aside just now, as a build does before removing it: its
    // change time is the move's.
    const old = join(layout.store, "mzz1-abcdef");
    await leave(old);
    const hoursAgo = new Date(Date.now() - 3 * 3_600_000);
    await utimes(old, hoursAgo, hoursAgo);
    await mkdir(join(layout.store, "removing"));
    await rename(old, join(layout.store, "removing", "mzz1-abcdef"));
    // Just moved aside: a live build may be removing it.
    expect(await removeLeftoverReleases(layout)).toBe(1);
    expect(await readdir(layout.releases)).toHaveLength(1);
    expect(await readdir(join(layout.store, "removing"))).toEqual(["mzz1-abcdef"]);
    // An hour later, no build is.
    expect(await removeLeftoverReleases(layout, Date.now() + 2 * 3_600_000)).toBe(1);
    expect(await readdir(join(layout.store, "removing"))).toEqual([]);
  });
});
