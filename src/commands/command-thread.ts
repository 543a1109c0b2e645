// The commands that hold a whole network in memory (`serve`, `build`) run in a worker thread of
// their own, whose young generation is bigger than Node's default: the command line is read again
// there (`command-thread-main.ts`), the process's SIGINT/SIGTERM are passed on to it, and its exit
// code becomes the process's. A running isolate cannot be given a bigger young generation; a
// worker's is set when it is made.
//
// Why, for `serve`: each scavenge of a server holding 100,000 stations first walks its old
// generation's pages (~1.1 ms), whatever it collects. With Node's default young generation (16 MB
// semi-spaces) that was ~40 scavenges a second under load: 1.1 µs of GC per request against 0.36 µs
// with 64 MB semi-spaces, 15.9 against 13.9-14.4 µs of CPU per request in all. Each pause is longer
// for it (3.0 against 1.5 ms): the p99's trade, measured in docs/performance-history.md.
// Why, for `build`: a scavenge's cost grows with the old generation it walks. Rendering a million
// stations (a heap of ~2 GB) made 2,120 scavenges of ~12.5 ms, 26.4 s of a 78.5 s render; with
// 64 MB semi-spaces 885, 12.4 s, and the render took 59.9 s. At 100,000 stations no difference
// beyond the noise.
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { outOfMemory } from "./heap-room.js";
import { STOP_SIGNALS, sayWhenStopped } from "./said-when-stopped.js";

/** Three 64 MB parts: V8 makes a young generation of two semi-spaces and a large-object space. */
export const YOUNG_GENERATION_MB = 3 * 64;

const RELOAD_SIGNAL = "SIGHUP";

interface CommandData {
  commandThread: true;
  argv: readonly string[];
  /** A worker's stderr is a pipe to the process's: whether that one is a terminal. */
  stderrIsTerminal: boolean;
}

const threadData = (): CommandData | null =>
  !isMainThread && (workerData as CommandData | null)?.commandThread === true
    ? (workerData as CommandData)
    : null;

/** True in the command's thread: the command runs here, not in another thread again. */
export function inCommandThread(): boolean {
  return threadData() !== null;
}

/** The command line's argv in the command's thread, as the process got it. */
export const commandArgv = (): readonly string[] => (workerData as CommandData).argv;

/** Whether the process's stderr is a terminal, from any thread. */
export function stderrIsTerminal(): boolean {
  return threadData()?.stderrIsTerminal ?? process.stderr.isTTY === true;
}

/**
 * Runs the command line `argv` in a thread of its own; resolves with its exit code. Rejects with
 * what the thread threw, should it throw. With `passStopSignals` (a server, which stops cleanly),
 * SIGINT and SIGTERM are passed on to the thread once; a second one of the same kind has its
 * default effect, ending the process, as before a stop was asked. Without it they have their
 * default effect at once (a build is safe to kill), once `stopped` is said. A
 * `--max-semi-space-size` given to Node overrides the size set here (Node's rule for workers).
 */
export function runInThread(
  argv: readonly string[],
  options: {
    passStopSignals?: boolean;
    /**
     * Without passStopSignals, what a stop means for the user, said on stderr before the signal
     * ends the process (`velodata: SIGINT: <stopped>`), asked when the stop comes.
     */
    stopped?: () => string;
    /**
     * With passStopSignals, run once the thread was ended by a stop during its start: it let go of
     * nothing it held (a server's marks on its tree).
     */
    afterStopDuringStart?: () => void;
    /** The thread's module (tests); by default the command line's entry. */
    entry?: URL;
    /** The thread's old-generation limit (MB); by default the process's. */
    maxOldMb?: number;
  } = {},
): Promise<number> {
  const entry = options.entry ?? new URL("./command-thread-main.js", import.meta.url);
  const worker = new Worker(entry, {
    workerData: {
      commandThread: true,
      argv,
      stderrIsTerminal: process.stderr.isTTY === true,
    } satisfies CommandData,
    resourceLimits: {
      maxYoungGenerationSizeMb: YOUNG_GENERATION_MB,
      ...(options.maxOldMb ? { maxOldGenerationSizeMb: options.maxOldMb } : {}),
    },
  });
  // Until the command listens for a stop (a server, once started), a message would wait behind
  // its start (minutes at a million stations) while it went on answering: the thread is ended
  // at once instead, as safely as a killed build (the tree on disk stays whole or is repaired).
  let listening = false;
  let stopped = false;
  worker.on("message", (message: { stopListening?: boolean }) => {
    if (message?.stopListening) listening = true;
  });
  // SIGHUP (systemd's ExecReload, logrotate's postrotate): passed on once the server listens for
  // it, else left alone; its default would end the process.
  const reload = () => {
    if (listening) worker.postMessage({ signal: RELOAD_SIGNAL });
  };
  if (options.passStopSignals) process.on(RELOAD_SIGNAL, reload);
  const passOn = options.passStopSignals
    ? STOP_SIGNALS.map((signal) => {
        const relay = () => {
          if (listening) return worker.postMessage({ signal });
          process.stdout.write(
            `${new Date().toISOString()} ${signal} during the start: stopping now\n`,
          );
          stopped = true;
          void worker.terminate();
        };
        process.once(signal, relay);
        return [signal, relay] as const;
      })
    : [];
  // Without passStopSignals the signal is said, then raised again: the process ends as killed.
  const forgetStop = options.passStopSignals ? () => {} : sayWhenStopped(() => options.stopped?.());
  return new Promise<number>((resolve, reject) => {
    worker.once("error", (error) => reject(outOfMemory(error)));
    // A thread ended by a stop during the start exits as a stopped server does: 0.
    worker.once("exit", (code) => {
      if (stopped) options.afterStopDuringStart?.();
      resolve(stopped ? 0 : code);
    });
  }).finally(() => {
    for (const [signal, relay] of passOn) process.off(signal, relay);
    forgetStop();
    process.off(RELOAD_SIGNAL, reload);
  });
}

/**
 * Calls `stop` with the signal's name once the process gets SIGINT or SIGTERM, and `reload` at
 * each SIGHUP, in any thread.
 */
export function onStopSignal(stop: (signal: string) => void, reload?: () => void): void {
  if (inCommandThread()) {
    parentPort?.on("message", (message: { signal?: string }) => {
      if (message.signal === RELOAD_SIGNAL) reload?.();
      else if (message.signal) stop(message.signal);
    });
    parentPort?.postMessage({ stopListening: true });
    return;
  }
  for (const signal of STOP_SIGNALS) process.once(signal, () => stop(signal));
  if (reload) process.on(RELOAD_SIGNAL, reload);
}
