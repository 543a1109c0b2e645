// V8 settings for a serving process: for its serving thread before that thread is made, and in
// it before anything of it is allocated.
import { setFlagsFromString } from "node:v8";

/**
 * Switches off V8's allocation-site pretenuring. Under load, the objects of finished requests
 * (requests, responses, their headers) are still reachable from a connection at a scavenge, so
 * V8 judges their allocation sites long-lived and starts allocating them straight in the old
 * generation: measured at 100,000 stations, 5 MB promoted per scavenge, scavenges of 9-12 ms
 * (0.5 ms in a bare node:http server), a page fault per request and a mark-compact every few
 * seconds. Without it, one station is served with ~40% less CPU per request; the refresh, whose
 * objects do live long, was not measurably slower (it allocates them in bulk and they are
 * promoted once).
 */
export function tuneHeapForServing(): void {
  setFlagsFromString("--no-allocation-site-pretenuring");
}

/** The flags tuneThreadsForServing sets: the benchmark gives its server refresh phase the same. */
export const SERVING_THREAD_FLAGS = ["--no-memory-reducer"] as const;

/**
 * Switches off V8's memory reducer in the threads made after this call (a flag V8 reads when it
 * sets a heap up: called by `velodata serve`'s process before it makes its serving thread).
 * After a server's pauses of some seconds the reducer runs a full collection as requests come
 * back, and shrinks the young generation to a few MB, which a server's requests, of which nothing
 * survives, never grow back until a refresh renders: at 100,000 stations, after pauses of 12 s,
 * scavenges ~13 times as often (freeing ~4 MB each against ~52 MB) and one station served at
 * 24.2-27.4 µs of CPU a request against 17.5-20.5 µs before the shrink; without the reducer
 * 18.3-19.1 µs in the same rounds. What it gave back was 9 MB of a 251 MB heap.
 */
export function tuneThreadsForServing(): void {
  for (const flag of SERVING_THREAD_FLAGS) setFlagsFromString(flag);
}
