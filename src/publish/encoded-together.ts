// The encoded answers of one station rendering, in one buffer that no other rendering shares.

/**
 * `texts` as UTF-8, each a view of one buffer made for them alone. A station's answers (its
 * single-station files and its GBFS station_status entries) are replaced together when its state
 * changes, so their buffer is freed at once then. `Buffer.from` would put them in Node's shared
 * 8 KB pools beside other stations' answers, and a pool lives until every answer in it has been
 * replaced: a server re-rendering ~10% of its stations each minute kept its pools ~41% full, 526 MB
 * of them for 290 MB of answers after 40 refreshes at 100,000 stations.
 *
 * The buffer is shared memory, which V8 does not count as its own: every 64 MB of new ArrayBuffer
 * memory starts a marking of the whole heap, run in steps as buffers are allocated. A server of a
 * million stations renders ~100,000 a minute (~200 MB): three markings of its ~3 GB heap a minute,
 * 17.6 s of three minutes' refreshes under the profiler in allocating these buffers, and the
 * refresh took 19.1 s (13.3–15.4 s once they were shared, on the same machine). A dead one is
 * still freed by the next collection, which V8 now starts for its heap's own growth only: at
 * 100,000 stations over 12 refreshes the memory held in buffers stayed the same (589 MB against
 * 600 MB).
 */
export function encodedTogether(texts: readonly string[]): Buffer[] {
  return writtenInto(Buffer.from(new SharedArrayBuffer(byteLengthOf(texts))), 0, texts);
}

const byteLengthOf = (texts: readonly string[]): number =>
  texts.reduce((size, text) => size + Buffer.byteLength(text), 0);

/** `texts` as UTF-8 in `buffer` from `at` on, back to back: a view of each. */
function writtenInto(buffer: Buffer, at: number, texts: readonly string[]): Buffer[] {
  let end = at;
  return texts.map((text) => {
    const start = end;
    end += buffer.write(text, end);
    return buffer.subarray(start, end);
  });
}

/** How a station rendering's texts become bytes: encodedTogether, or encodedInChunks' function. */
export type Encode = (texts: readonly string[]) => Buffer[];

// The first chunk's size; each next one twice the last, up to the most.
const FIRST_CHUNK = 64 << 20;
const MOST_CHUNK = 1 << 30;

// UTF-8 takes at most 3 bytes for each UTF-16 unit of a string.
const MOST_BYTES_PER_UNIT = 3;

/**
 * For a process that renders every station once and exits (`build`, a cron refresh rendering
 * everything): the texts written as views of big chunks, the first 64 MB, each next one twice as
 * big up to 1 GB. V8 counts buffers as external memory and starts marking its whole heap each
 * time 64 MB more of it is alive: a million stations' ~2.7 GB of answers in one buffer each
 * started 53 markings of a heap growing to 2.8 GB in a build. Not for a server: a chunk lives as
 * long as any answer in it, and a server replaces them a tenth at a time (see encodedTogether).
 *
 * The chunks are SharedArrayBuffers: another thread can write the answers to disk from the same
 * memory, with no copy and nothing asked of this thread meanwhile (see background-writer.ts).
 */
export function encodedInChunks(): Encode {
  let chunk: Buffer<ArrayBufferLike> = Buffer.alloc(0);
  let at = 0;
  let next = FIRST_CHUNK;
  return (texts) => {
    // Written at once where even the longest encoding fits; measured first only near a chunk's end.
    let most = 0;
    for (const text of texts) most += text.length * MOST_BYTES_PER_UNIT;
    if (at + most > chunk.length) {
      const size = byteLengthOf(texts);
      if (at + size > chunk.length) {
        // Zeroed pages never written are never touched: the last chunk's unused end costs nothing.
        chunk = Buffer.from(new SharedArrayBuffer(Math.max(next, size)));
        next = Math.min(next * 2, MOST_CHUNK);
        at = 0;
      }
    }
    const views = writtenInto(chunk, at, texts);
    for (const view of views) at += view.length;
    return views;
  };
}
