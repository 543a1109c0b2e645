// The server's log: lines gathered and written together at most a tenth of a second later, so that
// logging every request costs a string, not a write (a syscall, and a wake-up of the reader) each.
// Written off the main thread when the writer is asynchronous: a slow reader never stalls requests.
import { write as writeFd } from "node:fs";

export interface LogSink {
  (line: string): void;
  /** Writes what is pending now (on shutdown, before exit); resolves once it is written. */
  flush(): Promise<void>;
}

/** Writes text and a newline; a promise when it finishes later (one write at a time is asked). */
export type LogWriter = (text: string) => void | Promise<void>;

// Past this many pending lines they are written at once, whatever the time.
const MAX_PENDING = 1024;
/** How long a line may wait for others before it is written. */
export const LOG_DELAY_MS = 100;
/**
 * Characters kept waiting at most while a write has not finished (the reader of the output is not
 * reading): past it lines are counted and dropped rather than kept, and a line says how many.
 */
export const MAX_WAITING_CHARS = 16 << 20;

/** `write` receives several lines joined by newlines, in the order they were logged. */
export function bufferedLog(write: LogWriter, maxWaitingChars = MAX_WAITING_CHARS): LogSink {
  let pending: string[] = [];
  let pendingChars = 0;
  let dropped = 0;
  let scheduled: NodeJS.Timeout | null = null;
  // The write in progress; lines logged meanwhile wait for it, in order.
  let writing: Promise<void> | null = null;

  const schedule = () => {
    if (writing) return; // its end writes what gathered meanwhile
    if (pending.length >= MAX_PENDING) void flush();
    // Unref'd: pending lines never hold the process open; stopping flushes them.
    else if (!scheduled && (pending.length > 0 || dropped > 0))
      scheduled = setTimeout(flush, LOG_DELAY_MS).unref();
  };
  const flush = (): Promise<void> => {
    if (scheduled) clearTimeout(scheduled);
    scheduled = null;
    if (writing) return writing.then(flush);
    if (dropped > 0) {
      pending.push(`log: ${dropped} lines dropped: the output was not read fast enough`);
      dropped = 0;
    }
    if (pending.length === 0) return Promise.resolve();
    const lines = pending;
    pending = [];
    pendingChars = 0;
    const written = write(lines.join("\n"));
    // A writer typed void may still return something (Array.prototype.push does): only a promise waits.
    if (!(written instanceof Promise)) return Promise.resolve();
    writing = written.finally(() => {
      writing = null;
      schedule();
    });
    return writing;
  };
  const sink = (line: string) => {
    if (writing && pendingChars > maxWaitingChars) {
      dropped++;
      return;
    }
    pending.push(line);
    pendingChars += line.length + 1;
    schedule();
  };
  sink.flush = flush;
  return sink;
}

/**
 * Writes to a file descriptor from the thread pool (`fs.write`), so that a full pipe blocks a pool
 * thread, not the server: process.stdout writes to pipes and files synchronously. A failed write
 * goes to `failed` (EPIPE: nobody reads any more) and its lines are lost.
 */
export function fdWriter(fd: number, failed: (error: NodeJS.ErrnoException) => void): LogWriter {
  return (text) =>
    new Promise<void>((resolve) => {
      const bytes = Buffer.from(`${text}\n`);
      const from = (offset: number) =>
        writeFd(fd, bytes, offset, bytes.length - offset, null, (error, written) => {
          // A descriptor left non-blocking by another process: try again shortly.
          if (error?.code === "EAGAIN") setTimeout(() => from(offset), 10);
          else if (error) {
            failed(error);
            resolve();
          } else if (offset + written < bytes.length) from(offset + written);
          else resolve();
        });
      from(0);
    });
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
