// What a stopped build leaves in the store goes: at the next build, and at each refresh.
import { mkdir, readdir, rename, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Release } from "../../src/publish/release.js";
import { layoutOf } from "../../src/tree/layout.js";
import { removeLeftoverReleases } from "../../src/tree/leftover-releases.js";
import { removeInBackground } from "../../src/tree/remove-in-background.js";
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

  it("go at a refresh, set aside under the lock: in releases/ at once, in removing/ once older than a live build's removal", async () => {
    const out = join(await tempDir(), "out");
    await writeTree(release, out);
    const layout = layoutOf(out);
    const aside = join(layout.store, "removing");
    await leave(join(layout.releases, "mzz0-abcdef"));
    // A release written hours ago, moved aside just now, as a build does before removing it: its
    // change time is the move's.
    const old = join(layout.store, "mzz1-abcdef");
    await leave(old);
    const hoursAgo = new Date(Date.now() - 3 * 3_600_000);
    await utimes(old, hoursAgo, hoursAgo);
    await mkdir(aside);
    await rename(old, join(aside, "mzz1-abcdef"));
    const handed: string[][] = [];
    const removals: Promise<void>[] = [];
    const remove = (folders: readonly string[]) => {
      handed.push([...folders]);
      removals.push(removeInBackground(folders));
      return removals.at(-1) as Promise<void>;
    };
    // Just moved aside: a live build may be removing it.
    expect(removeLeftoverReleases(layout, { remove })).toBe(1);
    expect(handed).toEqual([[join(aside, "mzz0-abcdef")]]);
    expect(await readdir(layout.releases)).toHaveLength(1);
    await Promise.all(removals);
    expect(await readdir(aside)).toEqual(["mzz1-abcdef"]);
    // An hour later, no build is. Renamed as it is handed over, which sets its change time: the
    // refreshes of the hour after leave it to this removal.
    const later = Date.now() + 2 * 3_600_000;
    expect(removeLeftoverReleases(layout, { now: later, remove })).toBe(1);
    expect(handed[1]).toHaveLength(1);
    expect(handed[1]?.[0]).toMatch(/removing\/mzz1-abcdef\+[0-9a-z]+$/);
    await Promise.all(removals);
    expect(await readdir(aside)).toEqual([]);
  });
});
