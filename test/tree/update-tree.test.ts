import { execFileSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  openSync,
  readlinkSync,
  rmSync,
  statSync,
  truncateSync,
  writeSync,
} from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout } from "node:timers/promises";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { UserError } from "../../src/errors.js";
import { writeSiblingsOffThread } from "../../src/publish/compression-worker.js";
import { makeRelease, type Release, releaseFile } from "../../src/publish/release.js";
import { followOnDisk } from "../../src/serve/follow-on-disk.js";
import type { Live } from "../../src/serve/live.js";
import { readTree } from "../../src/tree/read-tree.js";
import { type SiblingsSink, writeSiblingFiles } from "../../src/tree/siblings.js";
import { updateTree } from "../../src/tree/update-tree.js";
import { writeTree } from "../../src/tree/write-tree.js";
import { tempDir } from "../helpers.js";
import { fixtureRelease } from "../publish/publish-helpers.js";
import { tmpfsMount } from "../tmpfs.js";
import { brokenRelease, treeFiles } from "./tree-helpers.js";

let release: Release;
let reference: Record<string, string>;
beforeAll(async () => {
  release = await fixtureRelease();
  const out = join(await tempDir(), "out");
  await writeTree(release, out);
  reference = treeFiles(out);
});

/** The same answers but one, made `size` bytes of spaces (in many chunks, as a list is). */
function oneBig(path: string, size: number): Release {
  const files = new Map(release.files);
  const file = release.files.get(path);
  if (!file) throw new Error(`no ${path} in the fixtures' release`);
  const chunks = Array.from({ length: Math.ceil(size / 4096) }, () => Buffer.alloc(4096, 32));
  files.set(path, releaseFile(chunks, file.contentType, file.freshness));
  return makeRelease(files, release.counts, new Date(0));
}

/** The same answers, each one `extra` bytes longer: every file changes. */
function grown(extra: number): Release {
  const files = new Map(
    [...release.files].map(([path, file]) => [
      path,
      releaseFile([...file.body, Buffer.alloc(extra, 32)], file.contentType, file.freshness),
    ]),
  );
  return makeRelease(files, release.counts, new Date(0));
}

describe("updateTree", () => {
  it("repairs a file changed behind its back though the manifest says it is current", async () => {
    const out = join(await tempDir(), "out");
    await writeTree(release, out);
    await writeFile(join(out, "vls/v3/stations/dublin/30.json"), '{"stale":true}');
    const stats = await updateTree(release, out);
    expect(stats).toMatchObject({ files: 1, repaired: 1, verified: false });
    expect(treeFiles(out)).toEqual(reference);
  });

  it("after an interrupted update trusts nothing: every file compared, strays deleted", async () => {
    const out = join(await tempDir(), "out");
    await writeTree(grown(3), out);
    const tree = readTree(out);
    // As a run killed half way leaves it: some files already new, a stray, the dirty mark.
    const half = [...release.files].slice(0, 100);
    for (const [path] of half) {
      const file = join(out, path.slice(1));
      if (existsSync(`${file}.json`))
        await writeFile(`${file}.json`, reference[`${path.slice(1)}.json`] ?? "", "base64");
    }
    await writeFile(join(out, "vls/v3/contracts.json.tmp-4000001"), "debris");
    await writeFile(tree.release.dirty, "{}");
    const stats = await updateTree(release, out);
    expect(stats.verified).toBe(true);
    expect(stats.removed).toBe(1);
    expect(treeFiles(out)).toEqual(reference);
    expect(existsSync(tree.release.dirty)).toBe(false);
    expect(readTree(out).manifest?.release).toBe(release.id);
  });

  it("writes in a later second than the run before it, so that nginx's mtime-size tags move with the bytes", async () => {
    const out = join(await tempDir(), "out");
    const path = "/vls/v3/stations/dublin/42";
    const station = release.files.get(path);
    if (!station) throw new Error(`no ${path} in the fixtures' release`);
    const text = Buffer.concat(station.body).toString();
    // The same size, other bytes: a bike taken, a stand freed.
    const changed = text.replace('"bikes":27', '"bikes":26');
    expect(changed).not.toBe(text);
    const files = new Map(release.files);
    files.set(path, releaseFile([Buffer.from(changed)], station.contentType, station.freshness));
    const next = makeRelease(files, release.counts, new Date(0));
    const seconds = (file: string) => Math.floor(statSync(file).mtimeMs / 1000);
    // Both writes inside one second but for the wait: started as a second begins.
    await setTimeout(1000 - (Date.now() % 1000));
    await writeTree(release, out);
    const sealed = seconds(readTree(out).release.manifest);
    await updateTree(next, out);
    const onDisk = join(out, "vls/v3/stations/dublin/42.json");
    expect(await readFile(onDisk, "utf8")).toBe(changed);
    expect(seconds(onDisk)).toBeGreaterThan(sealed);
  });

  it("deletes the files that left the release", async () => {
    const out = join(await tempDir(), "out");
    await writeTree(release, out);
    const fewer = new Map([...release.files].filter(([path]) => !path.includes("/dublin")));
    const stats = await updateTree(makeRelease(fewer, release.counts, new Date(0)), out);
    expect(stats.removed).toBe(release.files.size - fewer.size);
    expect(existsSync(join(out, "vls/v3/stations/dublin/42.json"))).toBe(false);
    expect(existsSync(join(out, "vls/v3/stations/nantes.json"))).toBe(true);
  });

  it("leaves the tree untouched and no staged file when a write fails", async () => {
    const out = join(await tempDir(), "out");
    await writeTree(release, out);
    const error = await updateTree(brokenRelease(), out).catch((cause) => cause);
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toContain("the tree served there is unchanged");
    expect(treeFiles(out)).toEqual(reference);
    const tree = readTree(out);
    expect(tree.interrupted).toBe(false);
    expect(existsSync(tree.release.incoming)).toBe(false);
  });

  it("trusts no file of a tree whose manifest is of an older format: every file compared", async () => {
    const out = join(await tempDir(), "out");
    await writeTree(release, out);
    const manifest = readTree(out).release.manifest;
    const files = Object.fromEntries(
      [...release.files].map(([path, file]) => [
        path,
        { etag: file.etag, size: file.size, type: file.contentType },
      ]),
    );
    await writeFile(manifest, JSON.stringify({ format: 1, release: release.id, files }));
    expect(readTree(out).manifest).toBeNull();
    await writeFile(join(out, "vls/v3/stations/dublin/30.json"), '{"stale":true}');
    const stats = await updateTree(release, out);
    expect(stats).toMatchObject({ verified: true, repaired: 1 });
    expect(treeFiles(out)).toEqual(reference);
    expect(readTree(out).manifest?.entry("/vls/v3/contracts")?.etag).toBe(
      release.files.get("/vls/v3/contracts")?.etag,
    );
  });

  it.each([
    ["a build", (out: string) => writeTree(grown(2), out)],
    ["a refresh", (out: string) => updateTree(grown(2), out)],
  ])(
    "reads the tree again under its lock when %s changed it since the caller read it",
    async (_, other) => {
      const out = join(await tempDir(), "out");
      await writeTree(release, out);
      const before = readTree(out);
      await other(out);
      const stats = await updateTree(release, out, { tree: before });
      // Known as changes from the manifest of the tree as it is now, not found as repairs.
      expect(stats).toMatchObject({ files: release.files.size, repaired: 0 });
      expect(treeFiles(out)).toEqual(reference);
      expect(readTree(out).manifest?.release).toBe(release.id);
    },
  );

  it("refuses a folder that holds no tree, or a tree of the old layout, saying what to run", async () => {
    const empty = await tempDir();
    await expect(updateTree(release, empty)).rejects.toThrow(/no velodata tree at/);
    await writeFile(join(empty, ".velodata-release.json"), "{}");
    await expect(updateTree(release, empty)).rejects.toThrow(/older velodata/);
    expect(await readdir(empty)).toEqual([".velodata-release.json"]);
  });
});

// Sized to hold the fixtures' tree once and a half: a second whole copy (every file grown) cannot fit.
let diskSize = "";
const disk = await (async () => {
  const pages = [...(await fixtureRelease()).files.values()].reduce(
    (total, file) => total + Math.max(1, Math.ceil(file.size / 4096)),
    0,
  );
  diskSize = `${Math.ceil((pages * 4 * 3) / 2)}k`;
  return tmpfsMount(diskSize);
})();

describe.skipIf(!disk)("on a full disk", () => {
  // Room for one tree at a time: each test starts on an empty disk.
  afterEach(async () => {
    for (const entry of await readdir(disk as string))
      await rm(join(disk as string, entry), { recursive: true, force: true });
  });

  it("build and refresh fail saying so, and the previous tree stays served and whole", async () => {
    const out = join(disk as string, "out");
    await mkdir(out);
    await writeTree(release, out);
    const link = readlinkSync(out);
    const big = grown(3000);
    // More than the disk holds, in one answer: a big body is written by the thread pool.
    const huge = oneBig("/vls/v3/stations", Number.parseInt(diskSize, 10) * 1024);
    for (const attempt of [
      () => updateTree(big, out),
      () => updateTree(huge, out),
      () => writeTree(big, out),
    ]) {
      const error = await attempt().catch((cause) => cause);
      expect(error).toBeInstanceOf(UserError);
      expect(error.message).toMatch(
        /no space left on the device .*the tree served there is unchanged/,
      );
      expect(error.details[0]).toContain("free some space");
      expect(readlinkSync(out)).toBe(link);
      expect(treeFiles(out)).toEqual(reference);
      expect(readTree(out).interrupted).toBe(false);
    }
    expect(await readdir(join(disk as string, ".out.velodata/releases"))).toHaveLength(1);
    expect(await readFile(join(out, "vls/v3/contracts.json"), "base64")).toBe(
      reference["vls/v3/contracts.json"],
    );
  });

  it("a server's update that does not fit says the server writes it again, not to run a command", async () => {
    const out = join(disk as string, "out");
    await mkdir(out);
    await writeTree(release, out);
    const live = { release } as unknown as Live;
    const reason = await followOnDisk(grown(3000), out, live);
    expect(reason).toMatch(/no space left on the device .*the tree served there is unchanged/);
    expect(reason).toContain(
      "free some space, then the server writes the tree again at its next refresh",
    );
    expect(reason).not.toContain("run the command again");
    expect(live.tree).toEqual({ path: out, release: release.id, error: reason });
    // A remedy that is another --out is taken only by a restart.
    execFileSync("mount", ["-o", "remount,ro", disk as string]);
    try {
      const readOnly = await followOnDisk(grown(10), out, live);
      expect(readOnly).toContain(
        "choose an --out on a writable file system, then restart the server with it",
      );
    } finally {
      execFileSync("mount", ["-o", "remount,rw", disk as string]);
    }
  });

  it("a first build that does not fit says nothing is published there yet, and leaves nothing", async () => {
    for (const [name, before] of [
      ["new", "none"],
      ["empty", "an empty folder"],
    ] as const) {
      const out = join(disk as string, name);
      if (before === "an empty folder") await mkdir(out);
      // More than the disk holds, in one answer.
      const huge = oneBig("/vls/v3/stations", Number.parseInt(diskSize, 10) * 1024);
      const error = await writeTree(huge, out).catch((cause) => cause);
      expect(error).toBeInstanceOf(UserError);
      expect(error.message).toMatch(
        /no space left on the device .*; nothing is published there yet$/,
      );
      expect(existsSync(join(out, "vls"))).toBe(false);
      expect(existsSync(join(disk as string, `.${name}.velodata`))).toBe(false);
    }
  });

  it("a build on a disk too full for its lock claims no tree is served there", async () => {
    const filler = join(disk as string, "filler");
    fillDisk(filler);
    try {
      const error = await writeTree(release, join(disk as string, "none")).catch((cause) => cause);
      expect(error).toBeInstanceOf(UserError);
      expect(error.message).toMatch(
        /no space left on the device \(write \/.*\/\.none\.velodata\/lock\); nothing there was changed$/,
      );
    } finally {
      rmSync(filler);
    }
  });

  it("a build whose files and siblings do not fit fails saying so, and leaves nothing of it", async () => {
    const out = join(disk as string, "siblings");
    await mkdir(out);
    await writeTree(release, out);
    const link = readlinkSync(out);
    // Without variants: its siblings are made and written while its files are.
    const big = grown(3000);
    const error = await writeTree(big, out, {
      compress: (siblings) => writeSiblingsOffThread(big.files, "refresh", siblings),
    }).catch((cause) => cause);
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toMatch(
      /no space left on the device .*the tree served there is unchanged/,
    );
    expect(readlinkSync(out)).toBe(link);
    expect(treeFiles(out)).toEqual(reference);
    // Siblings under way when it failed were done before the new release's folder went.
    expect(await readdir(join(disk as string, ".siblings.velodata/releases"))).toHaveLength(1);
  });

  it("a failed build waits for the sibling under way before removing its release", async () => {
    const out = join(disk as string, "late");
    await mkdir(out);
    await writeTree(release, out);
    // A slow sibling, still being written when the files fill the disk: done 200 ms after the
    // writer stops, longer than the writer takes to remove its folder if it did not wait.
    let late: Promise<void> = Promise.resolve();
    const compress = (siblings: SiblingsSink) =>
      (late = new Promise<void>((resolve) => {
        siblings.stop.addEventListener("abort", () =>
          setTimeout(200).then(() => {
            // Empty: on the full disk, room for its folder and names only.
            const empty = Buffer.alloc(0);
            writeSiblingFiles(join(siblings.root, "late/late.json"), { gzip: empty, br: empty });
            resolve();
          }),
        );
      }));
    const error = await writeTree(grown(3000), out, { compress }).catch((cause) => cause);
    expect(error.message).toMatch(/no space left on the device/);
    await late; // the sibling is written, now or (had the writer not waited) after the folder went
    expect(await readdir(join(disk as string, ".late.velodata/releases"))).toHaveLength(1);
    expect(treeFiles(out)).toEqual(reference);
  });

  it("a refresh with nothing new marks nothing dirty and leaves no temporary file when the disk is full", async () => {
    const out = join(disk as string, "same");
    await mkdir(out);
    await writeTree(release, out);
    const folder = readTree(out).release.folder;
    const filler = join(disk as string, "filler");
    fillDisk(filler);
    // Room for the lock and the mark, not for the manifest.
    truncateSync(filler, statSync(filler).size - 8192);
    try {
      for (let run = 0; run < 2; run++) {
        const error = await updateTree(release, out).catch((cause) => cause);
        expect(error?.message).toMatch(
          /no space left on the device .*the tree served there is unchanged/,
        );
        expect(readTree(out).interrupted).toBe(false);
        expect((await readdir(folder)).filter((name) => name.includes("tmp"))).toEqual([]);
      }
    } finally {
      rmSync(filler);
    }
  });
});

/** Writes `path` until the file system is full. */
function fillDisk(path: string): void {
  const chunk = Buffer.alloc(64 * 1024);
  const fd = openSync(path, "w");
  try {
    for (;;) writeSync(fd, chunk);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code !== "ENOSPC") throw cause;
  } finally {
    closeSync(fd);
  }
}
