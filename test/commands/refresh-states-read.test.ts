// The cron refresh reads its states file against the last accepted one, kept beside the tree: only
// the records that changed are parsed and checked, and whatever that cannot vouch for is read whole.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { build } from "../../src/commands/build.js";
import { memoryOutput } from "../../src/commands/output.js";
import { refresh } from "../../src/commands/refresh.js";
import { synth } from "../../src/commands/synth.js";
import type { MinuteState } from "../../src/publish/incremental/refresh-state.js";
import { recordSizes } from "../../src/source/states-bytes.js";
import { readTree } from "../../src/tree/read-tree.js";
import { readRefreshCache, writeRefreshCache } from "../../src/tree/refresh-cache.js";
import { tempDir } from "../helpers.js";
import { treeFiles } from "../tree/tree-helpers.js";

const NOW = new Date("2026-01-05T08:10:00Z");
const FAST = "static source unchanged: only the changed stations rendered";
let source: string;
const states = (minute: number): string =>
  join(source, minute === 0 ? "states.json" : `states-${minute}.json`);

beforeAll(async () => {
  source = join(await tempDir(), "source");
  await synth({
    stations: 600,
    contracts: 2,
    changed: 0.1,
    minutes: 3,
    out: source,
    output: memoryOutput(),
  });
});

/** The states file's lines: `{"states":[`, one record per line, `]}`. */
async function lines(file: string): Promise<string[]> {
  return (await readFile(file, "utf8")).split("\n");
}

async function refreshed(out: string, state: string): Promise<string[]> {
  const output = memoryOutput();
  await refresh({ source, state, out, now: NOW, output });
  return output.lines;
}

async function built(state = states(0)): Promise<string> {
  const out = join(await tempDir(), "out");
  await build({ source, state, out, now: NOW, output: memoryOutput() });
  return out;
}

/** The served files (siblings by what they decode to) and the release id. */
function served(out: string): { files: object; release?: string } {
  const tree = readTree(out);
  return { files: treeFiles(tree.release.tree), release: tree.manifest?.release };
}

const keptFiles = async (out: string): Promise<string[]> =>
  (await readdir(readTree(out).release.folder)).filter((name) => name.startsWith("accepted-"));

describe("the states file read against the last accepted one", () => {
  it("keeps the accepted file beside the tree, one at a time, never in it", async () => {
    const out = await built();
    expect(await keptFiles(out)).toHaveLength(1);
    await refreshed(out, states(1));
    await refreshed(out, states(2));
    const kept = await keptFiles(out);
    expect(kept).toHaveLength(1);
    const text = await readFile(join(readTree(out).release.folder, kept[0] as string), "utf8");
    expect(text).toBe(await readFile(states(2), "utf8"));
  });

  it("gives what a full build gives when records are swapped (another station at a place)", async () => {
    const out = await built();
    const file = join(await tempDir(), "swapped.json");
    const swapped = await lines(states(1));
    [swapped[1], swapped[2]] = [swapped[2] as string, swapped[1] as string];
    // Both end with a comma (the last record does not): still valid JSON.
    await writeFile(file, swapped.join("\n"));
    expect(await refreshed(out, file)).toEqual([expect.stringContaining(FAST)]);
    expect(served(out)).toEqual(served(await built(file)));
  });

  it("leaves out a changed record in error, said with its file, record and field as a whole read says it", async () => {
    const out = await built();
    const file = join(await tempDir(), "bad.json");
    const bad = await lines(states(1));
    bad[5] = (bad[5] as string).replace('"stands":', '"stands":900,"x":');
    await writeFile(file, bad.join("\n"));
    const said = await refreshed(out, file);
    expect(said).toContainEqual(
      expect.stringMatching(
        /^warning: .*bad\.json\[4\] \([^)]+#\d+\) mainStands\.x: unknown field: the fields here are bikes, stands, [^:]+: this state is left out, the station keeps its last published state$/,
      ),
    );
    // The file's other changes are published: as a build of it, but that station's state.
    const whole = served(await built(states(1)));
    expect(served(out).release).not.toBe(served(await built()).release);
    expect(served(out).release).not.toBe(whole.release);
  });

  it("leaves out a changed record holding a key twice, saying where", async () => {
    const out = await built();
    const file = join(await tempDir(), "twice.json");
    const bad = await lines(states(1));
    expect(bad[5]).toContain('"status":');
    bad[5] = (bad[5] as string).replace('"status":', '"status":"CLOSED","status":');
    await writeFile(file, bad.join("\n"));
    expect(await refreshed(out, file)).toContainEqual(
      expect.stringMatching(
        /^warning: .*twice\.json\[4\] \([^)]+#\d+\) status: is given twice in the record \(JSON would silently keep the last one\).*: this state is left out, the station keeps its last published state$/,
      ),
    );
  });

  it("says again, at every refresh, a station without a state", async () => {
    const file = join(await tempDir(), "missing.json");
    const missing = (await lines(states(0))).filter((_, at) => at !== 3);
    await writeFile(file, missing.join("\n"));
    const out = await built(file);
    for (const minute of [1, 2]) {
      const text = (await lines(states(minute))).filter((_, at) => at !== 3);
      await writeFile(file, text.join("\n"));
      const said = await refreshed(out, file);
      expect(said.join("\n")).toContain(FAST);
      expect(said.join("\n")).toContain("no state: published as CLOSED");
      expect(served(out)).toEqual(served(await built(file)));
    }
  });

  it("reads a record changed into one of the same length (only its bytes tell it)", async () => {
    const out = await built();
    const file = join(await tempDir(), "same-length.json");
    const changed = await lines(states(0));
    // A second of its lastUpdate moved: as long as before, and valid.
    changed[5] = (changed[5] as string).replace(/(:\d)(\d)Z"/, (_, head, unit) => {
      return `${head}${(Number(unit) + 1) % 10}Z"`;
    });
    expect(changed[5]).not.toBe((await lines(states(0)))[5]);
    await writeFile(file, changed.join("\n"));
    expect(await refreshed(out, file)).toEqual([expect.stringContaining(FAST)]);
    expect(served(out)).toEqual(served(await built(file)));
  });

  it("finds the accepted records' sizes again when the state has none or wrong ones", async () => {
    for (const spoil of [
      (_: Int32Array) => undefined,
      (sizes: Int32Array) => sizes.map((size) => size + 1),
      (sizes: Int32Array) => sizes.map((size, at) => (at === 7 ? size - 1 : size)),
    ]) {
      const out = await built();
      const folder = readTree(out).release.folder;
      const read = readRefreshCache(folder);
      const minute = read?.value as MinuteState;
      const sizes = minute.accepted?.sizes;
      expect(sizes).toHaveLength(600);
      const accepted = { ...minute.accepted, sizes: spoil(sizes as Int32Array) };
      writeRefreshCache(folder, { ...minute, accepted });
      expect(await refreshed(out, states(1))).toEqual([expect.stringContaining(FAST)]);
      expect(served(out)).toEqual(served(await built(states(1))));
      // Kept right for the next read.
      const next = readRefreshCache(readTree(out).release.folder)?.value as MinuteState;
      expect(Array.from(next.accepted?.sizes ?? [])).toEqual(
        recordSizes(await readFile(states(1))),
      );
    }
  });

  it("reads the file whole when the kept one is not what was accepted", async () => {
    const out = await built();
    const [name] = await keptFiles(out);
    // The same size, other records: minute 1's where they are as long as minute 0's, as if they
    // had been accepted already.
    const kept = join(readTree(out).release.folder, name as string);
    const next = await lines(states(1));
    const spoilt = (await lines(kept)).map((line, at) =>
      next[at]?.length === line.length ? (next[at] as string) : line,
    );
    expect(spoilt).not.toEqual(await lines(kept));
    await writeFile(kept, spoilt.join("\n"));
    expect(await refreshed(out, states(1))).toEqual([expect.stringContaining(FAST)]);
    expect(served(out)).toEqual(served(await built(states(1))));
  });
});
