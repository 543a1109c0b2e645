// The heap a build's thread starts with, sized from its source's stations and states files
// (see build-heap.ts): what is asked for, and what the thread then gets.
import { mkdir, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { getHeapStatistics } from "node:v8";
import { describe, expect, it } from "vitest";
import { buildHeapOf, sourceBytesOf } from "../../src/commands/build-heap.js";
import { startedProcess, tempDir } from "../helpers.js";

const MB = 2 ** 20;
const GB = 2 ** 30;

describe("buildHeapOf", () => {
  it("leaves V8's defaults to a small source", () => {
    // 100,000 stations: 24 MB of stations and 25 MB of states.
    expect(buildHeapOf(49 * MB, 4 * GB, 24 * GB)).toBeNull();
  });

  it("starts a big source's heap at six times its bytes, with a limit twice that", () => {
    // A million stations: 241 MB and 254 MB.
    expect(buildHeapOf(495 * MB, 4 * GB, 24 * GB)).toEqual({ initialOldMb: 2970, maxOldMb: 5940 });
  });

  it("keeps a limit already higher than twice the first", () => {
    expect(buildHeapOf(495 * MB, 8 * GB, 24 * GB)).toEqual({ initialOldMb: 2970, maxOldMb: 8192 });
  });

  it("leaves V8's defaults where that limit would pass half the machine's memory", () => {
    expect(buildHeapOf(495 * MB, 4 * GB, 11 * GB)).toBeNull();
    expect(buildHeapOf(495 * MB, 4 * GB, 12 * GB)).not.toBeNull();
  });
});

describe("sourceBytesOf", () => {
  it("counts the stations file and the states file, the one --state names if it does", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "contracts.json"), "x".repeat(1000));
    await writeFile(join(dir, "stations.json"), "x".repeat(300));
    await writeFile(join(dir, "states.json"), "x".repeat(40));
    expect(sourceBytesOf(dir)).toBe(340);
    const other = join(dir, "states-2.json");
    await writeFile(other, "x".repeat(7));
    expect(sourceBytesOf(dir, other)).toBe(307);
  });

  it("counts stations given as CSV, and nothing for a file absent or a path through a file", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "stations.csv"), "x".repeat(50));
    expect(sourceBytesOf(dir)).toBe(50);
    // A --source that is a file: the build's thread says so, as it reads it.
    expect(sourceBytesOf(join(dir, "stations.csv"))).toBe(0);
  });
});

describe("a build's thread", () => {
  // A stand-in for the build's thread that keeps ~300 MB of objects alive, as a render does, then
  // says its heap's limit. Its mark-compacts are counted by V8's --trace-gc.
  const probe = `import { writeSync } from "node:fs";
    import { getHeapStatistics } from "node:v8";
    const kept = [];
    for (let i = 0; i < 3_000_000; i++) kept.push({ at: i, text: "station " + i });
    writeSync(1, "limit " + getHeapStatistics().heap_size_limit + " kept " + kept.length + "\\n");\n`;

  async function thread(sized: boolean) {
    const dir = await tempDir();
    // A source whose heap, as sized, needs a limit above the default (its files sparse: only their
    // sizes are read before the thread starts).
    const source = join(dir, "source");
    await mkdir(source);
    const bytes = Math.ceil((0.6 * getHeapStatistics().heap_size_limit) / 6);
    await writeFile(join(source, "stations.json"), "");
    await truncate(join(source, "stations.json"), bytes);
    await writeFile(join(dir, "probe.mjs"), probe);
    const dist = (module: string) =>
      JSON.stringify(new URL(`../../dist/commands/${module}.js`, import.meta.url).href);
    // A file, not --input-type: the thread would inherit that flag, refused for a file.
    await writeFile(
      join(dir, "main.mjs"),
      `import { setFlagsFromString } from "node:v8";
      const { runInThread } = await import(${dist("command-thread")});
      const { sizeHeapForBuilding } = await import(${dist("build-heap")});
      setFlagsFromString("--trace-gc");
      const heap = ${sized} ? sizeHeapForBuilding(${JSON.stringify(source)}) : {};
      console.log("asked " + JSON.stringify(heap));
      process.exitCode = await runInThread([], {
        entry: new URL(${JSON.stringify(pathToFileURL(join(dir, "probe.mjs")).href)}),
        ...heap,
      });`,
    );
    const ended = await startedProcess(process.execPath, [join(dir, "main.mjs")]).ended;
    expect(ended.code).toBe(0);
    const asked = JSON.parse(/^asked (.*)$/m.exec(ended.stdout)?.[1] ?? "null");
    const limit = Number(/^limit (\d+) kept 3000000$/m.exec(ended.stdout)?.[1]);
    const markCompacts = ended.stdout.split("\n").filter((line) => line.includes("Mark-Compact"));
    return { asked, limit, markCompacts };
  }

  it("gets the limit asked, and no full collection while its heap grows to ~300 MB", async () => {
    const sized = await thread(true);
    expect(sized.asked.maxOldMb).toBeGreaterThan(getHeapStatistics().heap_size_limit / MB);
    expect(sized.limit).toBeGreaterThanOrEqual(sized.asked.maxOldMb * MB);
    expect(sized.markCompacts).toEqual([]);
    // The same thread with V8's defaults: collections as its heap grows, under the default limit.
    const plain = await thread(false);
    expect(plain.asked).toEqual({});
    expect(plain.limit).toBeLessThan(sized.asked.maxOldMb * MB);
    expect(plain.markCompacts.length).toBeGreaterThan(0);
  }, 60_000);
});
