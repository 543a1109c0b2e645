// One benchmark phase in its own process (so its peak RSS is its own), timed step by step; prints JSON.
// Usage: node scripts/bench/phases.js build|server-refresh SOURCE OUT [MINUTES]
import { copyFile, mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { memoryOutput } from "../../dist/commands/output.js";
import { readValidDataset } from "../../dist/commands/read-source.js";
import { compressRelease } from "../../dist/publish/compress.js";
import { writeSiblingsOffThread } from "../../dist/publish/compression-worker.js";
import { encodedInChunks } from "../../dist/publish/encoded-together.js";
import { publish } from "../../dist/publish/publish.js";
import { publishOffThread } from "../../dist/publish/static-off-thread.js";
import { stationListLayouts } from "../../dist/publish/station-files.js";
import { tuneHeapForServing } from "../../dist/serve/heap-tuning.js";
import { startRefresher } from "../../dist/serve/refresher.js";
import { DEFAULT_MAX_MISSING_SHARE, stateFile } from "../../dist/serve/state-source.js";
import { assembleDataset } from "../../dist/source/dataset.js";
import { readStates, readStatic } from "../../dist/source/read-dataset.js";
import { statesFileTime } from "../../dist/source/source-time.js";
import { writeTreeAsMade } from "../../dist/tree/write-tree.js";
import { median } from "./median.js";

const [mode, source, out, minutes] = process.argv.slice(2);
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
  // As `velodata build`: the station answers are rendered here while a worker thread renders the
  // static ones, and those without siblings are written by another as they are made ("render"
  // overlaps that writing);
  // the files with siblings are written as their variants come ("compress", inside "write"), made
  // from a worker thread.
  let writeStarted = 0;
  await writeTreeAsMade(out, async (early, siblings) => {
    const { release } = await step("render", () =>
      publishOffThread(dataset, {
        generatedAt: new Date(),
        onStationFiles: early,
        encode: encodedInChunks(),
      }),
    );
    writeStarted = performance.now();
    const layouts = stationListLayouts(dataset.stations) ?? [];
    const compressing = writeSiblingsOffThread(release.files, "build", siblings, layouts);
    compressing
      .then(() => (steps.compress = (performance.now() - writeStarted) / 1000))
      .catch(() => {});
    return { release, compressing };
  });
  steps.write = (performance.now() - writeStarted) / 1000;
  const { rss, heapUsed, arrayBuffers } = process.memoryUsage();
  memory.write = [rss, heapUsed, arrayBuffers].map((bytes) => Math.round(bytes / 2 ** 20));
} else if (mode === "server-refresh") {
  // What `velodata serve` does at start (not timed), then successive minutes refreshed by the
  // server's own refresher and state source (`minutes`, states-1.json on): "read" is the state
  // source's read (the file, its checks, the missing stations), "render" from there to the
  // refresher's swap of live.release, "compress" the variants of what changed, made after the
  // swap while the new release is already served. Each step is the median over the minutes: the
  // first refresh is not the steady state (at a million stations later minutes were slower).
  // As a server does, one states file path read at start and at each refresh; the feed replaces
  // it with the next minute's (rename), between two.
  // (Beside the tree, not in it: the tree is served by the serving benchmark afterwards.)
  tuneHeapForServing(); // as \`velodata serve\` does first
  const statesDir = `${out}-states`;
  const statesPath = join(statesDir, "states.json");
  await mkdir(statesDir, { recursive: true });
  await copyFile(join(source, "states.json"), statesPath);
  const staticRead = await readStatic(source);
  // As `velodata serve`: into the buffer its refresher reads the file into every minute.
  let initial = await readStates(staticRead, statesPath, undefined, { reuse: true });
  const dataset = assembleDataset(staticRead.source, initial.states, statesFileTime(statesPath));
  const first = await publish(dataset, { generatedAt: new Date() });
  const served = await compressRelease(first.release, { budget: "build" });
  const states = stateFile(statesPath, staticRead, {
    maxMissingShare: DEFAULT_MAX_MISSING_SHARE,
    log: () => {},
    known: initial.known,
  });
  initial = undefined; // as in \`velodata serve\`: only the state source decides what to keep of it
  let marks = {};
  const timedSource = {
    name: states.name,
    async read(current, now) {
      marks.started = performance.now();
      const read = await states.read(current, now);
      marks.read = performance.now();
      return read;
    },
  };
  let release = served;
  const live = {
    get release() {
      return release;
    },
    set release(next) {
      if (marks.read !== undefined && marks.swapped === undefined)
        marks.swapped = performance.now();
      release = next;
    },
    refreshSeconds: 3600,
    nextRefreshAt: null,
    lastRefresh: null,
  };
  const refresher = startRefresher({
    live,
    dataset,
    cache: first.cache,
    staticFiles: new Map([...served.files].filter(([, file]) => file.freshness === "static")),
    source: timedSource,
    seconds: 3600,
    log: () => {},
  });
  const each = { read: [], render: [], compress: [], total: [] };
  for (let minute = 1; minute <= Number(minutes ?? 1); minute++) {
    await copyFile(join(source, `states-${minute}.json`), `${statesPath}.next`);
    await rename(`${statesPath}.next`, statesPath);
    marks = {};
    const outcome = await refresher.refreshNow();
    const ended = performance.now();
    if (!outcome.ok) throw new Error(`the refresh failed: ${outcome.error}`);
    if (live.release.counts.stations !== dataset.stations.length)
      throw new Error("the refresh did not swap a release of these stations");
    each.read.push((marks.read - marks.started) / 1000);
    each.render.push((marks.swapped - marks.read) / 1000);
    each.compress.push((ended - marks.swapped) / 1000);
    each.total.push((marks.swapped - marks.started) / 1000);
  }
  await refresher.stop();
  await rm(statesDir, { recursive: true, force: true });
  steps.read = median(each.read);
  steps.render = median(each.render);
  steps.compress = median(each.compress);
  const { rss, heapUsed, arrayBuffers } = process.memoryUsage();
  memory.compress = [rss, heapUsed, arrayBuffers].map((bytes) => Math.round(bytes / 2 ** 20));
  report(median(each.total), { each: each.total });
} else throw new Error(`unknown phase ${mode}`);

if (mode === "build") report(steps.read + steps.render + steps.write);

function report(total, more = {}) {
  const maxRssMB = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(`${JSON.stringify({ steps, total, maxRssMB, memory, ...more })}\n`);
}
