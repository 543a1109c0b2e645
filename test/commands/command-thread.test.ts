// A server's command thread keeps its young generation at full size; the threads it starts do not.
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { YOUNG_GENERATION_MB } from "../../dist/commands/command-thread.js";
import { tempDir } from "../helpers.js";

const THREADS = new URL("../../dist/commands/command-thread.js", import.meta.url).href;

/**
 * The new space's size (MB) in a command thread as it starts, and in a thread it starts in turn,
 * measured in a process of their own: V8's flags are the process's.
 */
async function newSpaces(nodeFlags: readonly string[] = [], keepYoungGeneration = true) {
  const dir = await tempDir();
  const probe = join(dir, "probe.mjs");
  // Stands in for command-thread-main.ts, which calls commandThreadStarted first too.
  await writeFile(
    probe,
    `import { writeSync } from "node:fs";
    import { getHeapSpaceStatistics } from "node:v8";
    import { Worker } from "node:worker_threads";
    const { commandThreadStarted } = await import(${JSON.stringify(THREADS)});
    const newSpace = () => getHeapSpaceStatistics().find((space) => space.space_name === "new_space").space_size / 2 ** 20;
    writeSync(1, JSON.stringify({ thread: newSpace() }) + "\\n");
    commandThreadStarted();
    const inner = new Worker(
      'const { getHeapSpaceStatistics } = require("node:v8");' +
      'const { writeSync } = require("node:fs");' +
      'const space = getHeapSpaceStatistics().find((space) => space.space_name === "new_space");' +
      'writeSync(1, JSON.stringify({ inner: space.space_size / 2 ** 20 }) + "\\\\n");',
      { eval: true },
    );
    await new Promise((resolve) => inner.on("exit", resolve));`,
  );
  const main = join(dir, "main.mjs");
  await writeFile(
    main,
    `const { runInThread } = await import(${JSON.stringify(THREADS)});
    process.exitCode = await runInThread([], {
      keepYoungGeneration: ${keepYoungGeneration},
      entry: new URL(${JSON.stringify(pathToFileURL(probe).href)}),
    });`,
  );
  const env = { ...process.env, NODE_OPTIONS: "" };
  const lines = execFileSync(process.execPath, [...nodeFlags, main], { encoding: "utf8", env });
  return Object.assign(
    {},
    ...lines
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line)),
  ) as {
    thread: number;
    inner: number;
  };
}

describe("a server's command thread", () => {
  it("starts with semi-spaces of their whole size, the floor V8 shrinks them to", async () => {
    const { thread } = await newSpaces();
    // Without the floor, V8 starts them at a few MB and grows them only as objects survive.
    expect(thread).toBe(YOUNG_GENERATION_MB / 3);
  });

  it("is the only one given that floor (a build's is not)", async () => {
    const { thread } = await newSpaces([], false);
    expect(thread).toBeLessThan(YOUNG_GENERATION_MB / 3);
  });

  it("starts threads of its own with V8's default young generation", async () => {
    const { inner } = await newSpaces();
    // V8's start (a few MB), not its default maximum (16 MB), which a floor left set would give.
    expect(inner).toBeLessThan(16);
  });

  it("leaves a semi-space size given to Node as it was given", async () => {
    expect((await newSpaces(["--min-semi-space-size=8"])).thread).toBe(8);
    expect((await newSpaces(["--max-semi-space-size=16"])).thread).toBeLessThanOrEqual(16);
  });
});
