// A command stopped by SIGINT or SIGTERM says what the stop leaves behind, on a line of its own,
// then ends as killed (a shell's 130 or 143, what a script running it looks for).
import { PRIORITY_PREFIX, writesToJournal } from "../journal.js";

export const STOP_SIGNALS = ["SIGINT", "SIGTERM"] as const;

/**
 * From now on, a stop says `velodata: SIGINT: <what it means>` (nothing when `means` gives
 * undefined) and raises the signal again, its handlers gone. Returns what takes them away.
 */
export function sayWhenStopped(means: () => string | undefined): () => void {
  const handlers = STOP_SIGNALS.map((signal) => {
    const say = () => {
      const text = means();
      if (text) {
        const priority = writesToJournal(2) ? PRIORITY_PREFIX.error : "";
        // On a terminal, on a line of its own: not after a progress line, nor ^C.
        const fresh = process.stderr.isTTY ? "\r\x1b[K" : "";
        process.stderr.write(`${fresh}${priority}velodata: ${signal}: ${text}\n`);
      }
      forget();
      process.kill(process.pid, signal);
    };
    process.once(signal, say);
    return [signal, say] as const;
  });
  const forget = () => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
  return forget;
}
