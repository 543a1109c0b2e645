// The cron refresh's fast path: a tree byte-identical to a full build of the same inputs, whatever
// the previous run left beside the tree, and that state never in the served folder.
import { existsSync, statSync } from "node:fs";
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { build } from "../../src/commands/build.js";
import { memoryOutput } from "../../src/commands/output.js";
import { refresh } from "../../src/commands/refresh.js";
import { synth } from "../../src/commands/synth.js";
import type { MinuteState } from "../../src/publish/incremental/refresh-state.js";
import type { SourceSeen } from "../../src/source/source-fingerprint.js";
import type { CacheSeen } from "../../src/tree/cache-seen.js";
import { filesUnder } from "../../src/tree/files-under.js";
import { readTree } from "../../src/tree/read-tree.js";
import {
  REFRESH_CACHE_FILE,
  REFRESH_STATIC_FILE,
  readRefreshCache,
  writeRefreshCache,
} from "../../src/tree/refresh-cache.js";
import { tempDir } from "../helpers.js";
import { treeFiles } from "../tree/tree-helpers.js";

const NOW = new Date("2026-01-05T08:10:00Z");
const FAST = "static source unchanged: only the changed stations rendered";
let dir: string;
let source: string;
const states = (minute: number, from = source): string =>
  join(from, minute === 0 ? "states.json" : `states-${minute}.json`);

beforeAll(async () => {
  dir = await tempDir();
  source = join(dir, "source");
  await synth({
    stations: 900,
    contracts: 3,
    changed: 0.1,
    minutes: 4,
    out: source,
    output: memoryOutput(),
  });
});

async function refreshed(out: string, minute: number): Promise<string[]> {
  const output = memoryOutput();
  await refresh({ source, state: states(minute), out, now: NOW, output });
  return output.lines;
}

/** The tree and its manifest (without its time) after a full build of the same inputs. */
async function fullBuild(minute: number, from = source): Promise<ReturnType<typeof served>> {
  const out = join(await tempDir(), "out");
  await build({ source: from, state: states(minute, from), out, now: NOW, output: memoryOutput() });
  return served(out);
}

/**
 * The served files and the manifest. Siblings are compared by what they decode to (`treeFiles`),
 * and their manifest entries left out: a build and a refresh compress at different levels.
 */
function served(out: string): { files: object; manifest: object; release?: string } {
  const tree = readTree(out);
  const manifest = Object.fromEntries(
    Object.entries(tree.manifest?.files ?? {}).map(([path, { variants, ...entry }]) => [
      path,
      { ...entry, compressed: variants !== undefined },
    ]),
  );
  // The release id too: derived from every path and ETag, a fast refresh computes it on its own.
  return { files: treeFiles(tree.release.tree), manifest, release: tree.manifest?.release };
}

describe("velodata refresh from the previous run's state", () => {
  it("gives, minute after minute, the tree a full build of the same inputs gives", async () => {
    const out = join(dir, "minutes");
    await build({ source, out, now: NOW, output: memoryOutput() });
    for (const minute of [1, 2, 3, 4]) {
      expect(await refreshed(out, minute)).toEqual([expect.stringContaining(FAST)]);
      expect(served(out)).toEqual(await fullBuild(minute));
    }
  });

  it("renders everything after a change of the static source, and matches a full build", async () => {
    const copy = join(await tempDir(), "source");
    await synth({
      stations: 300,
      contracts: 2,
      changed: 0.1,
      minutes: 2,
      out: copy,
      output: memoryOutput(),
    });
    const out = join(dir, "static");
    await build({ source: copy, out, now: NOW, output: memoryOutput() });
    const stations = join(copy, "stations.json");
    await writeFile(
      stations,
      (await readFile(stations, "utf8")).replace('"name":"', '"name":"Nouvelle '),
    );
    const output = memoryOutput();
    await refresh({ source: copy, state: join(copy, "states-1.json"), out, now: NOW, output });
    expect(output.lines.join("\n")).not.toContain(FAST);
    expect(served(out)).toEqual(await fullBuild(1, copy));
    expect(await readFile(join(out, "vls/v3/stations.json"), "utf8")).toContain(
      '"name":"Nouvelle ',
    );
  });

  it("matches a full build when the contracts' stations are mixed in the list of all stations", async () => {
    // That list's gzip variant cannot be assembled from the contracts' lists then: made whole.
    const copy = join(await tempDir(), "source");
    await synth({
      stations: 300,
      contracts: 2,
      changed: 0.1,
      minutes: 1,
      out: copy,
      output: memoryOutput(),
    });
    const stations = join(copy, "stations.json");
    const { stations: records } = JSON.parse(await readFile(stations, "utf8")) as {
      stations: { contract: string }[];
    };
    const [first, second] = [...new Set(records.map((record) => record.contract))];
    const ofFirst = records.filter((record) => record.contract === first);
    const ofSecond = records.filter((record) => record.contract === second);
    const mixed = ofFirst.flatMap((record, at) => [
      record,
      ...(ofSecond[at] ? [ofSecond[at]] : []),
    ]);
    mixed.push(...ofSecond.slice(ofFirst.length));
    expect(mixed).toHaveLength(records.length);
    await writeFile(stations, JSON.stringify({ stations: mixed }));
    const out = join(await tempDir(), "out");
    await build({ source: copy, out, now: NOW, output: memoryOutput() });
    const output = memoryOutput();
    await refresh({ source: copy, state: join(copy, "states-1.json"), out, now: NOW, output });
    expect(output.lines).toEqual([expect.stringContaining(FAST)]);
    expect(served(out)).toEqual(await fullBuild(1, copy));
  });

  it("renders everything, and repairs it, when a file it would leave as it is was changed by hand", async () => {
    const out = join(dir, "hand-edit");
    await build({ source, out, now: NOW, output: memoryOutput() });
    // A static answer, which the fast path never reads: only the trust test can see the edit.
    const contracts = join(out, "vls/v3/contracts.json");
    const text = await readFile(contracts, "utf8");
    await writeFile(contracts, text.replace(/"name":"(.)/, '"name":"X'));
    expect(await readFile(contracts, "utf8")).not.toBe(text);
    const lines = await refreshed(out, 1);
    expect(lines.join("\n")).not.toContain(FAST);
    expect(lines.join("\n")).toContain("1 repaired");
    expect(served(out)).toEqual(await fullBuild(1));
  });

  it("keeps its state in the store beside the served folder, never in it", async () => {
    const out = join(dir, "minutes");
    const tree = readTree(out);
    expect(existsSync(join(tree.release.folder, REFRESH_CACHE_FILE))).toBe(true);
    expect(filesUnder(tree.release.tree).filter((file) => file.includes("refresh-cache"))).toEqual(
      [],
    );
    expect(
      Object.keys(tree.manifest?.files ?? {}).filter((path) => path.includes("cache")),
    ).toEqual([]);
  });

  it("writes only the minute part of its state while the static source is unchanged", async () => {
    const out = join(dir, "parts");
    await build({ source, out, now: NOW, output: memoryOutput() });
    const folder = readTree(out).release.folder;
    const before = await stat(join(folder, REFRESH_STATIC_FILE));
    const minuteBefore = await readFile(join(folder, REFRESH_CACHE_FILE));
    expect(await refreshed(out, 1)).toEqual([expect.stringContaining(FAST)]);
    const after = await stat(join(folder, REFRESH_STATIC_FILE));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect((await readFile(join(folder, REFRESH_CACHE_FILE))).equals(minuteBefore)).toBe(false);
  });

  it("records how it saw the static source, and knows it unchanged from that without reading it", async () => {
    const out = join(dir, "seen");
    await build({ source, out, now: NOW, output: memoryOutput() });
    const minute = () => {
      const read = readRefreshCache(readTree(out).release.folder);
      if (!read) throw new Error("no minute part");
      return read.value as { sourceSeen?: SourceSeen };
    };
    const built = minute().sourceSeen as SourceSeen;
    expect(built.readAt).toBe(built.at);
    // As if the build had seen the files long after their last change (this copy is seconds old,
    // which the next run would read again).
    const later = { ...minute(), sourceSeen: { ...built, at: Date.now() + 60_000 } };
    expect(writeRefreshCache(readTree(out).release.folder, later)).not.toBeNull();
    expect(await refreshed(out, 1)).toEqual([expect.stringContaining(FAST)]);
    const refreshedSeen = minute().sourceSeen as SourceSeen;
    expect(refreshedSeen.signature).toBe(built.signature);
    // Not read again: the time of the last read carried on.
    expect(refreshedSeen.readAt).toBe(built.readAt);
    expect(refreshedSeen.at).toBeGreaterThanOrEqual(built.at);
  });

  it("renders everything when the static part is not the one the minute part names", async () => {
    const out = join(dir, "other-static");
    await build({ source, out, now: NOW, output: memoryOutput() });
    await refreshed(out, 1);
    const folder = readTree(out).release.folder;
    // Whole and checksummed, but other records: a static part left by another run.
    // Each station's record is stored on a line of its own after the value.
    const read = readRefreshCache(folder, REFRESH_STATIC_FILE);
    if (!read) throw new Error("no static part");
    const fixed = read.value as { stations: { contracts: number[] } };
    const records = fixed.stations.contracts.map((_, index) =>
      (read.line(index) as string).replace('"name":"', '"name":"Autre '),
    );
    expect(records.every((line) => line.includes('"name":"Autre '))).toBe(true);
    expect(writeRefreshCache(folder, fixed, REFRESH_STATIC_FILE, records)).not.toBeNull();
    const lines = await refreshed(out, 2);
    expect(lines.join("\n")).not.toContain(FAST);
    expect(served(out)).toEqual(await fullBuild(2));
  });

  it("trusts the static part as last seen, until its file changes in place, even keeping its size and mtime", async () => {
    const out = join(dir, "spoilt-static");
    await build({ source, out, now: NOW, output: memoryOutput() });
    expect(await refreshed(out, 1)).toEqual([expect.stringContaining(FAST)]);
    const folder = readTree(out).release.folder;
    const file = join(folder, REFRESH_STATIC_FILE);
    // As if the refresh had seen it long after it was written (the build was seconds ago, which
    // the next run would hash again, as racily clean).
    const asSeenLater = (mtimeMs?: number) => {
      const minute = readRefreshCache(folder)?.value as MinuteState;
      const seen = { ...(minute.staticSeen as CacheSeen), ...(mtimeMs ? { mtimeMs } : {}) };
      expect(seen.ino).toBe(statSync(file).ino);
      const later = { ...seen, at: Math.max(seen.mtimeMs, seen.ctimeMs) + 2000 };
      expect(writeRefreshCache(folder, { ...minute, staticSeen: later })).not.toBeNull();
    };
    asSeenLater();
    expect(await refreshed(out, 2)).toEqual([expect.stringContaining(FAST)]);
    // A station's name (on the lines after the value's), changed in place: the same size, the
    // checksum line as it was, and seen as if it had kept its mtime too.
    const bytes = await readFile(file);
    const records = bytes.indexOf("\n", bytes.indexOf("\n") + 1);
    const at = bytes.indexOf('"name":"', records) + '"name":"'.length;
    bytes[at] = (bytes[at] as number) ^ 0x20;
    await writeFile(file, bytes);
    asSeenLater(statSync(file).mtimeMs);
    const lines = await refreshed(out, 3);
    expect(lines.join("\n")).not.toContain(FAST);
    expect(served(out)).toEqual(await fullBuild(3));
  });

  it.each([
    [
      "corrupt",
      async (file: string) => {
        const bytes = await readFile(file);
        // A byte of the last column's: the checksum no longer matches.
        const last = bytes.length - 1;
        bytes[last] = (bytes[last] as number) ^ 1;
        await writeFile(file, bytes);
      },
    ],
    ["missing", async (file: string) => writeFile(file, "")],
    [
      "left by another release",
      async (file: string) => {
        await writeFile(`${file}.kept`, await readFile(file));
      },
    ],
  ])("renders everything when the state is %s, and matches a full build", async (what, spoil) => {
    const out = join(dir, `spoilt-${what.replaceAll(" ", "-")}`);
    await build({ source, out, now: NOW, output: memoryOutput() });
    await refreshed(out, 1);
    const file = join(readTree(out).release.folder, REFRESH_CACHE_FILE);
    await spoil(file);
    if (what === "left by another release") {
      await refreshed(out, 2); // the state now describes minute 2's release
      await writeFile(file, await readFile(`${file}.kept`)); // minute 1's, stale
    }
    const lines = await refreshed(out, 3);
    expect(lines.join("\n")).not.toContain(FAST);
    expect(served(out)).toEqual(await fullBuild(3));
    // …and the run left a good state again: the next one is fast.
    expect(await refreshed(out, 4)).toEqual([expect.stringContaining(FAST)]);
  });
});
