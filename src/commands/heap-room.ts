// A server holds every answer in memory. Near V8's heap limit its collector turns to saving memory
// at every turn: at a million stations (3.5 GB of the 4 GB default limit) four successive minute
// refreshes took 14.3, 14.0, 28.8 and 22.2 s, and 11.0, 14.7, 12.1 and 12.1 s with a 16 GB limit;
// past the limit the process dies.
import { getHeapStatistics, type HeapInfo } from "node:v8";
import { UserError } from "../errors.js";
import { formatBytes } from "./output.js";

// Past this share of the limit, once the first release is made, the server says so.
const FULL_SHARE = 0.5;

/** What to do when the heap is more than half full at start; null when it has room. */
export function heapRoomWarning(heap: HeapInfo = getHeapStatistics()): string | null {
  const used = heap.used_heap_size;
  const limit = heap.heap_size_limit;
  if (used <= limit * FULL_SHARE) return null;
  // Three times what is used, in whole GB: a refresh's garbage, and the next release beside it.
  const suggested = Math.ceil((3 * used) / 2 ** 30) * 1024;
  return (
    `warning: the data fills ${formatBytes(used)} of Node's ${formatBytes(limit)} heap limit: refreshes slow down near ` +
    `it and the server stops past it. Start it with NODE_OPTIONS=--max-old-space-size=${suggested}`
  );
}

/**
 * A command's thread ended for want of heap (Node's ERR_WORKER_OUT_OF_MEMORY), said as what to do;
 * any other error as it is. The thread's limit is the process's (the same V8 flags).
 */
export function outOfMemory(error: unknown, heap: HeapInfo = getHeapStatistics()): unknown {
  if ((error as NodeJS.ErrnoException | null)?.code !== "ERR_WORKER_OUT_OF_MEMORY") return error;
  const limit = heap.heap_size_limit;
  // Twice the limit, in whole GB.
  const suggested = Math.ceil((2 * limit) / 2 ** 30) * 1024;
  return new UserError(
    "out of memory: the data does not fit in Node's heap limit (--max-old-space-size)",
    [
      `start it with NODE_OPTIONS=--max-old-space-size=${suggested} (MB), on a machine with that much memory to spare`,
    ],
    { cause: error },
  );
}
