// How fast this sitting of the machine is, apart from velodata: the same code runs 1.5-2x slower
// on some sittings of the same VM, and a run's figures are read against it. Three probes, each
// the median of three tries, in a process of its own (a fresh heap), in a few seconds:
// - a fixed JavaScript loop (CPU);
// - memory touched for the first time (GB/s): every build and refresh allocates hundreds of MB,
//   and on a VM whose host hands pages over slowly each first touch costs several times more;
// - small files created, and staged and renamed over (thousands/s), on the file system of DIR,
//   where the tree is written: a refresh's write is these two steps, ~20,000 times a minute at
//   100,000 stations.
// Usage: node scripts/bench/sitting.js DIR   (prints one line of JSON; DIR/sitting-probe is made and removed)
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { median } from "./median.js";

const TRIES = 3;
const LOOP_ITERATIONS = 100_000_000;
const TOUCHED_BYTES = 512 * 2 ** 20;
const PAGE = 4096;
// A station's answer, ~700 B; in folders of a contract's size.
const FILES = 10_000;
const FOLDERS = 10;
const FILE_BYTES = 700;

function seconds(work) {
  const started = performance.now();
  work();
  return (performance.now() - started) / 1000;
}

function loop() {
  let sum = 0;
  for (let i = 0; i < LOOP_ITERATIONS; i++) sum = (sum + i * 7) % 1_000_003;
  // Used, so that the loop is not optimized away.
  if (sum < 0) throw new Error("unreachable");
}

function touchFreshMemory() {
  // Outside V8's heap, and big enough that malloc maps it fresh and unmaps it once collected.
  const bytes = Buffer.allocUnsafeSlow(TOUCHED_BYTES);
  for (let at = 0; at < bytes.length; at += PAGE) bytes[at] = 1;
}

function filesProbe(dir) {
  const root = join(dir, "sitting-probe");
  rmSync(root, { recursive: true, force: true });
  const body = Buffer.alloc(FILE_BYTES, "x");
  const names = [];
  for (let folder = 0; folder < FOLDERS; folder++) {
    mkdirSync(join(root, String(folder)), { recursive: true });
    for (let file = 0; file < FILES / FOLDERS; file++)
      names.push(join(root, String(folder), `${file}.json`));
  }
  try {
    const created = seconds(() => {
      for (const name of names) writeFileSync(name, body);
    });
    const replaced = seconds(() => {
      for (const name of names) writeFileSync(`${name}.tmp`, body);
      for (const name of names) renameSync(`${name}.tmp`, name);
    });
    return { created, replaced };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const [dir] = process.argv.slice(2);
if (!dir) throw new Error("usage: node scripts/bench/sitting.js DIR");
const loops = [];
const touches = [];
const files = [];
for (let trial = 0; trial < TRIES; trial++) {
  loops.push(seconds(loop));
  touches.push(seconds(touchFreshMemory));
  files.push(filesProbe(dir));
}
console.log(
  JSON.stringify({
    loopSeconds: median(loops),
    touchGBps: TOUCHED_BYTES / 1e9 / median(touches),
    createdPerSecond: FILES / median(files.map((run) => run.created)),
    replacedPerSecond: FILES / median(files.map((run) => run.replaced)),
  }),
);
