// A command stopped by SIGINT or SIGTERM says what the stop leaves behind, on a line of its own,
// then ends as killed (a shell's 130 or 143, what a script running it looks for).
import { PRIORITY_PREFIX, writesToJournal } from "../journal.js";

export const STOP_SIGNALS = ["SIGINT", "SIGTERM"] as const;

/**
 * From now on, a stop says `velodata: SIGINT: <what it means>` (nothing when `means` gives
 * undefined) and raises the signal again, its handlers gone. Returns what takes them away.
 */
export function sayWhenStopped(means: () => string | undefined): () => void {
  return heldStops(means).forget;
}

/** The stops of sayWhenStopped, which work that must not be cut short can hold back. */
export interface HeldStops {
  /** From now on a stop waits for `release` (a second one does not: the user insists). */
  hold(): void;
  /** A stop that came while held is said and raised now. */
  release(): void;
  /** No longer held, and a stop that came meanwhile is dropped (an error says what happened). */
  drop(): void;
  /** Takes the handlers away (a stop held and not released is dropped). */
  forget(): void;
}

/** As sayWhenStopped, with stretches of work a stop waits for (`hold`, `release`). */
export function heldStops(means: () => string | undefined): HeldStops {
  let held = false;
  let waiting: string | undefined;
  const stop = (signal: string) => {
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
  const handlers = STOP_SIGNALS.map((signal) => {
    const handler = () => {
      if (held && waiting === undefined) waiting = signal;
      else stop(signal);
    };
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  const forget = () => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
  return {
    hold: () => {
      held = true;
    },
    release: () => {
      held = false;
      if (waiting !== undefined) stop(waiting);
    },
    drop: () => {
      held = false;
      waiting = undefined;
    },
    forget,
  };
}
