// One benchmark phase in its own process (so its peak RSS is its own), timed step by step; prints JSON.
// Usage: node scripts/bench/phases.js build|server-refresh SOURCE OUT
import { memoryOutput } from "../../dist/commands/output.js";
import { readValidDataset } from "../../dist/commands/read-source.js";
import { compressRelease } from "../../dist/publish/compress.js";
import { publish } from "../../dist/publish/publish.js";
import { refreshRelease } from "../../dist/publish/refresh-release.js";
import { readStates, readStatic } from "../../dist/source/read-dataset.js";
import { writeTreeAsMade } from "../../dist/tree/write-tree.js";

const [mode, source, out] = process.argv.slice(2);
const steps = {};
// Memory after each step (MB): what the process holds, to find what dominates its peak.
const memory = {};
const step = async (name, work) => {
  const started = performance.now();
  const result = await work();
  steps[name] = (steps[name] ?? 0) + (performance.now() - started) / 1000;
  const { rss, heapUsed, arrayBuffers } = process.memoryUsage();
  memory[name] = [rss, heapUsed, arrayBuffers].map((bytes) => Math.round(bytes / 2 ** 20));
  return result;
};

if (mode === "build") {
  // What `velodata build` does, plus the compression it will do once it writes .gz/.br siblings.
  const { dataset } = await step("read", () => readValidDataset(source, undefined, memoryOutput()));
  // As `velodata build`: the station answers are rendered first and those without siblings are
  // written by a worker thread while the static answers render ("render" overlaps that writing);
  // the files with siblings are written as their variants come ("compress", inside "write").
  let writeStarted = 0;
  await writeTreeAsMade(out, async (early) => {
    const { release } = await step("render", () =>
      publish(dataset, { generatedAt: new Date(), onStationFiles: early }),
    );
    writeStarted = performance.now();
    const compressing = compressRelease(release, { budget: "build" });
    compressing
      .then(() => (steps.compress = (performance.now() - writeStarted) / 1000))
      .catch(() => {});
    return { release, compressed: compressing };
  });
  steps.write = (performance.now() - writeStarted) / 1000;
  const { rss, heapUsed, arrayBuffers } = process.memoryUsage();
  memory.write = [rss, heapUsed, arrayBuffers].map((bytes) => Math.round(bytes / 2 ** 20));
} else if (mode === "server-refresh") {
  // What `velodata serve` does at start (not timed), then one refresh: states read to swap.
  const staticRead = await readStatic(source);
  const initial = await readStates(staticRead, `${source}/states.json`);
  const { assembleDataset } = await import("../../dist/source/dataset.js");
  const dataset = assembleDataset(staticRead.source, initial.states);
  const first = await publish(dataset, { generatedAt: new Date() });
  const previous = await compressRelease(first.release, { budget: "build" });
  // As the server's state source: the records equal to the last accepted ones are not checked again.
  const next = await step("read", () =>
    readStates(staticRead, `${source}/states-1.json`, initial.known),
  );
  // What the refresher does: the served release with the changed station answers replaced (the
  // unchanged ones keep their variants); the swap ends the timed part, and the variants of what
  // changed are made after it, while the new release is already served.
  const refreshed = await step("render", () =>
    refreshRelease(previous, { ...dataset, states: next.states }, first.cache, {
      generatedAt: new Date(),
      refreshSeconds: 60,
    }),
  );
  if (!refreshed) throw new Error("the cache does not match the dataset: nothing to measure");
  const fresh = refreshed.release;
  const total = Object.values(steps).reduce((sum, seconds) => sum + seconds, 0);
  await step("compress", () => compressRelease(fresh, { budget: "refresh" }));
  report(total);
} else throw new Error(`unknown phase ${mode}`);

if (mode === "build") report(steps.read + steps.render + steps.write);

function report(total) {
  process.stdout.write(
    `${JSON.stringify({ steps, total, maxRssMB: process.resourceUsage().maxRSS / 1024, memory })}\n`,
  );
}
