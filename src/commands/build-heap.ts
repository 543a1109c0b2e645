// The heap a build's thread starts with, sized from what it will read. A build's heap only grows:
// it holds every record, then every answer, to its end (~5.4 bytes of heap per byte of the
// stations and states files: 2.66 GB for a million stations' 496 MB). From V8's small first
// limit, the collector marks the whole heap each time it has grown by its factor: a million
// stations' render in memory made 18-20 mark-compacts in 39.7-41.5 s, and 13-15 in 37.5-38.7 s
// with the old generation's first limit at 3-4 GB (docs/performance-history.md, the
// fifty-seventh session). V8 takes a first limit of at most half the heap's limit, so the limit
// is raised to twice the first one where the machine's memory allows it.
import { statSync } from "node:fs";
import { totalmem } from "node:os";
import { join } from "node:path";
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { STATES_FILE } from "../source/states-file.js";

const MB = 2 ** 20;

/** A build's heap at its render's end, per byte of its stations and states files, rounded up. */
const HEAP_PER_SOURCE_BYTE = 6;

// Below this, V8's own first limits cost a build little (11 mark-compacts of at most ~370 MB at
// 100,000 stations, ~290 MB expected).
const SMALLEST_MB = 512;

// The heap's limit stays within this share of the machine's memory: the answers' bytes, outside
// the heap, need the rest.
const MEMORY_SHARE = 0.5;

export interface BuildHeap {
  /** V8's `--initial-old-space-size` (MB): no full collection before the old generation is that big. */
  initialOldMb: number;
  /** The thread's old-generation limit (MB), at least twice the first. */
  maxOldMb: number;
}

/**
 * The build's heap for a source of `sourceBytes` (its stations and states files), or null when
 * V8's defaults serve: a small source, or a machine whose memory would not hold the heap twice.
 */
export function buildHeapOf(
  sourceBytes: number,
  heapLimit = getHeapStatistics().heap_size_limit,
  memory = machineMemory(),
): BuildHeap | null {
  const initialOldMb = Math.ceil((sourceBytes * HEAP_PER_SOURCE_BYTE) / MB);
  if (initialOldMb < SMALLEST_MB) return null;
  const maxOldMb = Math.max(Math.ceil(heapLimit / MB), 2 * initialOldMb);
  if (maxOldMb > (memory * MEMORY_SHARE) / MB) return null;
  return { initialOldMb, maxOldMb };
}

/**
 * The bytes of the stations and states files a build of `source` reads: 0 for a file absent or
 * unreadable (a --source that is a file, say), which the build's thread then says as it reads it.
 */
export function sourceBytesOf(source: string, stateFile?: string): number {
  const files = ["stations.json", "stations.csv"].map((name) => join(source, name));
  files.push(stateFile ?? join(source, STATES_FILE));
  return files.reduce((sum, file) => sum + sizeOf(file), 0);
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/**
 * Sets V8's first old-generation limit for the threads made after this call (a flag V8 reads when
 * it sets a heap up), unless Node was given one; returns the build thread's limit to ask for
 * (Node gives a `--max-old-space-size` of its command line precedence over it).
 */
export function sizeHeapForBuilding(source: string, stateFile?: string): { maxOldMb?: number } {
  const heap = buildHeapOf(sourceBytesOf(source, stateFile));
  if (!heap) return {};
  if (!process.execArgv.some((flag) => flag.startsWith("--initial-old-space-size")))
    setFlagsFromString(`--initial-old-space-size=${heap.initialOldMb}`);
  return { maxOldMb: heap.maxOldMb };
}

/** The V8 flags that give a process's main thread the heap BuildHeap says (the benchmark's). */
export const buildHeapFlags = (heap: BuildHeap | null): string[] =>
  heap
    ? [`--initial-old-space-size=${heap.initialOldMb}`, `--max-old-space-size=${heap.maxOldMb}`]
    : [];

function machineMemory(): number {
  // A cgroup's limit, or a huge number without one.
  const constrained = process.constrainedMemory?.() ?? 0;
  return constrained > 0 ? Math.min(constrained, totalmem()) : totalmem();
}
