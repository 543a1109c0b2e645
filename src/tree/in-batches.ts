// Runs small synchronous file operations in batches, yielding to the event loop between batches.
// For files of a few hundred bytes, synchronous calls are several times faster than the thread
// pool's round trips; the yields keep a server that writes its tree answering requests meanwhile.
import { setImmediate as yieldToEventLoop } from "node:timers/promises";

const BATCH = 256;

export async function inBatches<T>(
  items: readonly T[],
  work: (item: T) => void,
  batch = BATCH,
): Promise<void> {
  for (let start = 0; start < items.length; start += batch) {
    const end = Math.min(start + batch, items.length);
    for (let index = start; index < end; index++) work(items[index] as T);
    await yieldToEventLoop();
  }
}
