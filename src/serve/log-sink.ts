// The request log: lines gathered and written together at most a tenth of a second later, so that
// logging every request costs a string, not a write (a syscall, and a wake-up of the reader) each.

export interface LogSink {
  (line: string): void;
  /** Writes what is pending now (on shutdown, before exit). */
  flush(): void;
}

// Past this many pending lines they are written at once, whatever the time.
const MAX_PENDING = 1024;
/** How long a line may wait for others before it is written. */
export const LOG_DELAY_MS = 100;

/** `write` receives several lines joined by newlines, in the order they were logged. */
export function bufferedLog(write: (text: string) => void): LogSink {
  let pending: string[] = [];
  let scheduled: NodeJS.Timeout | null = null;
  const flush = () => {
    if (scheduled) clearTimeout(scheduled);
    scheduled = null;
    if (pending.length === 0) return;
    const lines = pending;
    pending = [];
    write(lines.join("\n"));
  };
  const sink = (line: string) => {
    pending.push(line);
    if (pending.length >= MAX_PENDING) flush();
    // Unref'd: pending lines never hold the process open; stopping flushes them.
    else if (!scheduled) scheduled = setTimeout(flush, LOG_DELAY_MS).unref();
  };
  sink.flush = flush;
  return sink;
}

let stampedAt = Number.NaN;
let stamp = "";

/** The time as an ISO string, formatted once per millisecond however many requests share it. */
export function timestamp(): string {
  const now = Date.now();
  if (now !== stampedAt) {
    stampedAt = now;
    stamp = new Date(now).toISOString();
  }
  return stamp;
}
