// `velodata serve` runs in a worker thread of its own, whose young generation is sized for
// serving: the command line is read again there (`serving-thread-main.ts`), the process's
// SIGINT/SIGTERM are passed on to it, and its exit code becomes the process's.
//
// Why: each scavenge of a server holding 100,000 stations takes ~1.4-2 ms whatever it collects
// (not in proportion to the heap, as first thought: a quarter less heap, the same time). With
// Node's default young generation (16 MB semi-spaces) that was ~40 scavenges a second under load:
// 1.1 µs of GC per request against 0.36 µs with 64 MB semi-spaces, 15.9 against 13.9-14.4 µs of
// CPU per request in all. A running isolate cannot be given a bigger young generation; a
// worker's is set when it is made.
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

/** Three 64 MB parts: V8 makes a young generation of two semi-spaces and a large-object space. */
export const SERVING_YOUNG_GENERATION_MB = 3 * 64;

const STOP_SIGNALS = ["SIGINT", "SIGTERM"] as const;

interface ServingData {
  servingThread: true;
  argv: readonly string[];
}

/** True in the serving thread: `serve` runs here, not in another thread again. */
export function inServingThread(): boolean {
  return !isMainThread && (workerData as ServingData | null)?.servingThread === true;
}

/** The command line's argv in the serving thread, as the process got it. */
export const servingArgv = (): readonly string[] => (workerData as ServingData).argv;

/**
 * Runs the command line `argv` (a `serve`) in the serving thread; resolves with its exit code.
 * Rejects with what the thread threw, should it throw. A signal is passed on once; a second one
 * of the same kind has its default effect, ending the process, as before a stop was asked.
 * A `--max-semi-space-size` given to Node overrides the size set here (Node's rule for workers).
 */
export function serveInThread(argv: readonly string[]): Promise<number> {
  const worker = new Worker(new URL("./serving-thread-main.js", import.meta.url), {
    workerData: { servingThread: true, argv } satisfies ServingData,
    resourceLimits: { maxYoungGenerationSizeMb: SERVING_YOUNG_GENERATION_MB },
  });
  const passOn = STOP_SIGNALS.map((signal) => {
    const relay = () => worker.postMessage({ signal });
    process.once(signal, relay);
    return [signal, relay] as const;
  });
  return new Promise<number>((resolve, reject) => {
    worker.once("error", reject);
    worker.once("exit", resolve);
  }).finally(() => {
    for (const [signal, relay] of passOn) process.off(signal, relay);
  });
}

/** Calls `stop` with the signal's name once the process gets SIGINT or SIGTERM, in any thread. */
export function onStopSignal(stop: (signal: string) => void): void {
  if (inServingThread()) {
    parentPort?.on("message", (message: { signal?: string }) => {
      if (message.signal) stop(message.signal);
    });
    return;
  }
  for (const signal of STOP_SIGNALS) process.once(signal, () => stop(signal));
}
