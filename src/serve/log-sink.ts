// The server's log: lines gathered as bytes and written together at most a tenth of a second
// later, so that logging a request costs a few bytes copied, not a write (a syscall, and a
// wake-up of the reader) each.
// Written off the main thread when the writer is asynchronous: a slow reader never stalls requests.
import { write as writeFd } from "node:fs";
import { PRIORITY_PREFIX } from "../journal.js";
import type { Severity } from "../log.js";
import { counted } from "../plural.js";
import type { Asked } from "./asked.js";
import { methodBytes, requestLineBound, targetBytes, writeRequestLine } from "./request-line.js";

export interface LogSink {
  /** A line as it is (no newline); `info` unless said. */
  (line: string, severity?: Severity): void;
  /**
   * A request's line, stamped with the time (`2025-… GET /path 200 1.2ms key 0de43ae5`), written
   * as bytes straight into the log's buffer (see request-line.ts).
   */
  request(
    method: string | undefined,
    asked: Asked | undefined,
    status: number,
    ms: number,
    delivered: boolean,
    keyId: string | null,
  ): void;
  /** Writes what is pending now (on shutdown, before exit); resolves once it is written. */
  flush(): Promise<void>;
}

/**
 * Writes lines given as bytes, each ending with a newline, in order; a promise when it finishes
 * later (one write at a time is asked). The bytes are lent: they are filled again once it returns
 * or its promise settles.
 */
export type LogWriter = (chunks: readonly Uint8Array[]) => void | Promise<void>;

// Past this many pending lines they are written at once, whatever the time.
const MAX_PENDING = 1024;
/** How long a line may wait for others before it is written. */
export const LOG_DELAY_MS = 100;
/**
 * Bytes kept waiting at most while a write has not finished (the reader of the output is not
 * reading): past it lines are counted and dropped rather than kept, and a line says how many.
 */
export const MAX_WAITING_BYTES = 16 << 20;
// The lines are written into buffers of this size (MAX_PENDING request lines fit in one), kept
// and filled again once written: a new one for each batch would be memory V8 counts as external.
const CHUNK = 256 << 10;
const KEPT = 4;
const NEWLINE = 0x0a;
const INFO_PREFIX = Buffer.from(PRIORITY_PREFIX.info);

export interface LogOptions {
  maxWaitingBytes?: number;
  /** Each line starts with its priority for systemd's journal (see journal.ts). */
  journal?: boolean;
}

/** `write` receives the lines in the order they were logged, each ending with a newline. */
export function bufferedLog(write: LogWriter, options: LogOptions = {}): LogSink {
  const maxWaitingBytes = options.maxWaitingBytes ?? MAX_WAITING_BYTES;
  // A request line's priority as bytes, and any other line's as text.
  const priority = options.journal ? INFO_PREFIX : null;
  const withPriority = priority
    ? (line: string, severity: Severity) => `${PRIORITY_PREFIX[severity]}${line}`
    : (line: string) => line;
  const spare: Buffer[] = [];
  let chunk: Buffer = Buffer.allocUnsafeSlow(CHUNK);
  let at = 0;
  // Filled chunks waiting before `chunk`, and their size.
  let sealed: Uint8Array[] = [];
  let sealedBytes = 0;
  let lines = 0;
  let dropped = 0;
  let scheduled: NodeJS.Timeout | null = null;
  // The write in progress; lines logged meanwhile wait for it, in order.
  let writing: Promise<void> | null = null;

  const seal = () => {
    if (at === 0) return;
    sealed.push(chunk.subarray(0, at));
    sealedBytes += at;
    chunk = spare.pop() ?? Buffer.allocUnsafeSlow(CHUNK);
    at = 0;
  };
  /** While a write has not finished and too much is waiting, lines are counted, not kept. */
  const dropping = (): boolean => {
    if (!writing || sealedBytes + at <= maxWaitingBytes) return false;
    dropped++;
    return true;
  };
  const appendText = (line: string) => {
    const bytes = Buffer.byteLength(line) + 1;
    if (bytes > CHUNK) {
      seal();
      sealed.push(Buffer.from(`${line}\n`));
      sealedBytes += bytes;
      return;
    }
    if (at + bytes > chunk.byteLength) seal();
    at += chunk.write(line, at);
    chunk[at++] = NEWLINE;
  };
  const logged = () => {
    lines++;
    schedule();
  };
  const recycle = (batch: readonly Uint8Array[]) => {
    for (const bytes of batch)
      if (bytes.buffer.byteLength === CHUNK && spare.length < KEPT)
        spare.push(Buffer.from(bytes.buffer, 0, CHUNK));
  };

  const schedule = () => {
    if (writing) return; // its end writes what gathered meanwhile
    if (lines >= MAX_PENDING) void flush();
    // Unref'd: pending lines never hold the process open; stopping flushes them.
    else if (!scheduled && (lines > 0 || dropped > 0))
      scheduled = setTimeout(flush, LOG_DELAY_MS).unref();
  };
  const flush = (): Promise<void> => {
    if (scheduled) clearTimeout(scheduled);
    scheduled = null;
    if (writing) return writing.then(flush);
    if (dropped > 0) {
      appendText(
        withPriority(
          `log: ${counted(dropped, "line")} dropped: the output was not read fast enough`,
          "warning",
        ),
      );
      dropped = 0;
    }
    seal();
    if (sealed.length === 0) return Promise.resolve();
    const batch = sealed;
    sealed = [];
    sealedBytes = 0;
    lines = 0;
    const written = write(batch);
    // A writer typed void may still return something (Array.prototype.push does): only a promise waits.
    if (!(written instanceof Promise)) {
      recycle(batch);
      return Promise.resolve();
    }
    writing = written.finally(() => {
      writing = null;
      recycle(batch);
      schedule();
    });
    return writing;
  };
  const sink = (line: string, severity: Severity = "info") => {
    if (dropping()) return;
    appendText(withPriority(line, severity));
    logged();
  };
  sink.request = (
    method: string | undefined,
    asked: Asked | undefined,
    status: number,
    ms: number,
    delivered: boolean,
    keyId: string | null,
  ) => {
    if (dropping()) return;
    const shown = methodBytes(method);
    const target = targetBytes(asked);
    const stamp = stampBytes();
    const key = keyId === null ? null : keyIdBytes(keyId);
    const start = priority?.byteLength ?? 0;
    const bound = start + stamp.byteLength + requestLineBound(shown, target, key);
    // A target is at most Node's header size limit (16 KB): a line always fits in a chunk.
    if (at + bound > chunk.byteLength) seal();
    if (priority) chunk.set(priority, at);
    at = writeRequestLine(chunk, at + start, stamp, shown, target, status, ms, delivered, key);
    logged();
  };
  sink.flush = flush;
  return sink;
}

/** The lines a LogWriter is given, as text without the last newline (for an Output). */
export const linesOf = (chunks: readonly Uint8Array[]): string =>
  Buffer.concat(chunks).toString("utf8").replace(/\n$/, "");

/**
 * Writes to a file descriptor from the thread pool (`fs.write`), so that a full pipe blocks a pool
 * thread, not the server: process.stdout writes to pipes and files synchronously. A failed write
 * goes to `failed` (EPIPE: nobody reads any more) and its lines are lost.
 */
export function fdWriter(fd: number, failed: (error: NodeJS.ErrnoException) => void): LogWriter {
  return async (chunks) => {
    for (const bytes of chunks) if (!(await writeAll(fd, bytes, failed))) return;
  };
}

/** True once all of `bytes` is written; false when a write failed. */
function writeAll(
  fd: number,
  bytes: Uint8Array,
  failed: (error: NodeJS.ErrnoException) => void,
): Promise<boolean> {
  return new Promise((resolve) => {
    const from = (offset: number) =>
      writeFd(fd, bytes, offset, bytes.byteLength - offset, null, (error, written) => {
        // A descriptor left non-blocking by another process: try again shortly.
        if (error?.code === "EAGAIN") setTimeout(() => from(offset), 10);
        else if (error) {
          failed(error);
          resolve(false);
        } else if (offset + written < bytes.byteLength) from(offset + written);
        else resolve(true);
      });
    from(0);
  });
}

// The millisecond last stamped, and its stamp as text and as bytes (request lines copy those).
let stampedAt = Number.NaN;
let stamp = "";
let stampBuffer = Buffer.alloc(0);

/** The time as an ISO string, formatted once per millisecond however many requests share it. */
export function timestamp(): string {
  const now = Date.now();
  if (now !== stampedAt) {
    stampedAt = now;
    stamp = new Date(now).toISOString();
    stampBuffer = Buffer.from(stamp);
  }
  return stamp;
}

// Key ids as bytes, each made once: a server has a few clients.
const idBytes = new Map<string, Uint8Array>();
const IDS_KEPT = 1024;

function keyIdBytes(id: string): Uint8Array {
  let bytes = idBytes.get(id);
  if (bytes === undefined) {
    if (idBytes.size >= IDS_KEPT) idBytes.clear();
    bytes = Buffer.from(id);
    idBytes.set(id, bytes);
  }
  return bytes;
}

/** timestamp() as bytes. */
function stampBytes(): Uint8Array {
  timestamp();
  return stampBuffer;
}
