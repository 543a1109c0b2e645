// The request log: lines gathered and written once per turn of the event loop, so that logging every
// request costs a string, not a write (and a syscall) each.

export interface LogSink {
  (line: string): void;
  /** Writes what is pending now (on shutdown, before exit). */
  flush(): void;
}

// Past this many pending lines they are written at once, whatever the turn.
const MAX_PENDING = 1024;

/** `write` receives several lines joined by newlines, in the order they were logged. */
export function bufferedLog(write: (text: string) => void): LogSink {
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const lines = pending;
    pending = [];
    write(lines.join("\n"));
  };
  const sink = (line: string) => {
    pending.push(line);
    if (pending.length >= MAX_PENDING) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
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
