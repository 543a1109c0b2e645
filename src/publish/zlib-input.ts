// How a body given in chunks is handed to zlib and brotli: joined, or cut into pieces of CHUNK
// bytes, in buffers lent from a few kept ones rather than new ones per body and per piece; and how
// what they make is joined, in shared memory.
import type { Transform } from "node:stream";

/** The size of a piece, and the most a body is joined into one buffer for a one-shot call. */
export const CHUNK = 1 << 20;

// A cron refresh compresses ~250 bodies a minute, ~400 MB: a new buffer per body and per piece is
// memory V8 counts as external, and answers with a mark-compact every 64 MB of it. Four jobs run
// at once (the thread pool's size), each holding up to two buffers.
const KEPT = 8;
const spare: Buffer[] = [];

function borrow(): Buffer {
  return spare.pop() ?? Buffer.allocUnsafeSlow(CHUNK);
}

function giveBack(buffer: Buffer): void {
  if (spare.length < KEPT) spare.push(buffer);
}

/**
 * `job` of the body's bytes as one buffer (the body's own when it has one chunk), lent until the
 * job settles: zlib's one-shot calls have consumed their input when they call back.
 */
export async function withJoined<T>(
  body: readonly Uint8Array[],
  job: (bytes: Uint8Array) => Promise<T>,
): Promise<T> {
  if (body.length === 1) return job(body[0] as Uint8Array);
  const size = sizeOf(body);
  if (size > CHUNK) return job(Buffer.concat(body, size));
  const buffer = borrow();
  try {
    return await job(joinInto(buffer, body));
  } finally {
    giveBack(buffer);
  }
}

// The one buffer bodies are joined into for a synchronous call (joinedNow), kept between calls.
let scratch = Buffer.allocUnsafeSlow(0);

/**
 * The body's bytes as one buffer (the body's own when it has one chunk), lent until the next
 * call: for a synchronous call that is done with it when it returns (see compressHere). No new
 * buffer per body: thousands of them a minute would be memory V8 counts as external.
 */
export function joinedNow(body: readonly Uint8Array[]): Uint8Array {
  if (body.length === 1) return body[0] as Uint8Array;
  const size = sizeOf(body);
  if (scratch.byteLength < size)
    scratch = Buffer.allocUnsafeSlow(Math.max(size, 2 * scratch.byteLength));
  return joinInto(scratch, body);
}

/** A body's size in bytes, from its chunks. */
export const sizeOf = (body: readonly Uint8Array[]): number =>
  body.reduce((sum, chunk) => sum + chunk.byteLength, 0);

/**
 * `chunks` joined into one new buffer of shared memory, which V8 does not count as its own (see
 * encoded-together.ts): for the variants made. A server of a million stations makes its changed
 * answers' variants after each swap: joined into ArrayBuffers, with zlib's output buffers beside
 * them, they started a marking of its ~3 GB heap every ~5 s, back to back, and took ~40 s of each
 * minute (~29 s since). The price: a dropped one waits for a collection, and fewer come (~185 MB
 * more RSS for a server of 100,000 stations, level over 30 minutes).
 */
export function sharedConcat(chunks: readonly Uint8Array[]): Buffer {
  return joinInto(Buffer.from(new SharedArrayBuffer(sizeOf(chunks))), chunks);
}

function joinInto(buffer: Buffer, body: readonly Uint8Array[]): Buffer {
  let at = 0;
  for (const chunk of body) {
    buffer.set(chunk, at);
    at += chunk.byteLength;
  }
  return buffer.subarray(0, at);
}

/**
 * A stream fed only the body's bytes from `from` to `to` (a list's items, between its brackets),
 * each piece of them shown to `seen` first (to take their checksum).
 */
export interface Window {
  stream: Transform;
  from: number;
  to: number;
  seen?: (bytes: Uint8Array) => void;
}

/**
 * The output of each stream, joined, once the body has gone through all of them in pieces of
 * exactly CHUNK bytes (the last one shorter), a Window's stream the part of each in its window:
 * the same pieces whatever the body's chunks, so the bytes made depend on the body's bytes alone
 * (brotli's fastest levels cut blocks where its input ends).
 */
export async function throughStreams(
  body: Iterable<Uint8Array>,
  streams: readonly (Transform | Window)[],
): Promise<Buffer[]> {
  const windows = streams.map((fed) =>
    "from" in fed && "to" in fed ? fed : { stream: fed, from: 0, to: Infinity },
  );
  const outputs = Promise.all(windows.map(({ stream }) => joinedOutput(stream)));
  outputs.catch(() => {}); // awaited below, once the body is written
  try {
    await writePieces(body, windows);
  } catch (error) {
    for (const { stream } of windows) stream.destroy(error as Error);
  }
  return outputs;
}

async function joinedOutput(stream: Transform): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const chunk of stream) out.push(chunk as Buffer);
  return sharedConcat(out);
}

/**
 * Two lent buffers take turns: one is filled while the streams consume the other, which is filled
 * again only once every stream has called back for it. A zlib stream calls back once it has
 * consumed a piece, and neither deflate (which copies its input into its window) nor brotli
 * (which compresses its fastest levels' input at once, and copies the others' into its ring
 * buffer) keeps a reference to it.
 */
async function writePieces(body: Iterable<Uint8Array>, windows: readonly Window[]) {
  const buffers = [borrow(), borrow()] as const;
  const consumed: Promise<unknown>[] = [Promise.resolve(), Promise.resolve()];
  let turn = 0;
  let filled = 0;
  let sent = 0;
  const send = async (size: number) => {
    const piece = (buffers[turn] as Buffer).subarray(0, size);
    const start = sent;
    sent += size;
    const written = Promise.all(
      windows.map(({ stream, from, to, seen }) => {
        const part = piece.subarray(
          Math.max(0, from - start),
          Math.max(0, Math.min(size, to - start)),
        );
        if (part.byteLength === 0) return undefined;
        seen?.(part);
        return write(stream, part);
      }),
    );
    written.catch(() => {}); // awaited before this buffer is filled again, or at the end
    consumed[turn] = written;
    turn = 1 - turn;
    filled = 0;
    await consumed[turn];
  };
  for (let chunk of body) {
    while (chunk.byteLength > 0) {
      const buffer = buffers[turn] as Buffer;
      const take = Math.min(CHUNK - filled, chunk.byteLength);
      // Most chunks fit whole; the commas between a list's items are half of them.
      if (take === 1) buffer[filled] = chunk[0] as number;
      else buffer.set(take === chunk.byteLength ? chunk : chunk.subarray(0, take), filled);
      filled += take;
      chunk = take === chunk.byteLength ? EMPTY : chunk.subarray(take);
      if (filled === CHUNK) await send(CHUNK);
    }
  }
  if (filled > 0) await send(filled);
  await Promise.all(consumed);
  // Not on an error: a stream may still be compressing a piece (the collector takes them then).
  buffers.forEach(giveBack);
  for (const { stream } of windows) stream.end();
}

const EMPTY = new Uint8Array(0);

function write(stream: Transform, piece: Buffer): Promise<void> {
  return new Promise((resolve, reject) =>
    stream.write(piece, (error) => (error ? reject(error) : resolve())),
  );
}
