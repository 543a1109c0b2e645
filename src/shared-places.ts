// Bytes handed to a worker thread as places in memory rather than as objects: views of shared
// memory go by reference, anything else is copied once, and a list of a million views is one
// array of numbers (posting the views themselves clones each one).

export interface Places {
  /** The buffers the places point into; the copies are memory[0], even when there are none. */
  memory: (ArrayBuffer | SharedArrayBuffer)[];
  /** Per view: an index into `memory`, then its start and end there. */
  places: Float64Array;
  /** Bytes copied into memory[0]. */
  copied: number;
}

/**
 * Where each of `views` is for another thread. Views of SharedArrayBuffers point into them; the
 * others are copied, each distinct view once (a list's commas are one buffer), back to back into
 * memory[0]: a SharedArrayBuffer when `shared` (places then in shared memory too), else an
 * ArrayBuffer the caller may move to the thread.
 */
export function placesOf(views: readonly Uint8Array[], shared: boolean): Places {
  const size = 3 * Float64Array.BYTES_PER_ELEMENT * views.length;
  const places = new Float64Array(shared ? new SharedArrayBuffer(size) : new ArrayBuffer(size));
  // memory[0], the copies, is made once their size is known.
  const memory: (ArrayBuffer | SharedArrayBuffer)[] = [new ArrayBuffer(0)];
  const indexOf = new Map<ArrayBufferLike, number>();
  const copies = new Map<Uint8Array, number>();
  let copied = 0;
  // One pass, each view's buffer read once. A list's views come in runs of one chunk's answers
  // between copies of the same comma: the last buffer and the last copy are known without a
  // lookup. A 100,000 stations' build spent 326-421 ms here in two passes, 106-110 ms in one.
  let lastBuffer: ArrayBufferLike | undefined;
  let lastIndex = 0;
  let lastCopy: Uint8Array | undefined;
  let lastCopyAt = 0;
  for (let index = 0; index < views.length; index++) {
    const view = views[index] as Uint8Array;
    const buffer = view.buffer;
    let start: number;
    if (buffer === lastBuffer || buffer instanceof SharedArrayBuffer) {
      if (buffer !== lastBuffer) {
        let at = indexOf.get(buffer);
        if (at === undefined) {
          at = memory.push(buffer) - 1;
          indexOf.set(buffer, at);
        }
        lastBuffer = buffer;
        lastIndex = at;
      }
      places[3 * index] = lastIndex;
      start = view.byteOffset;
    } else {
      if (view !== lastCopy) {
        let at = copies.get(view);
        if (at === undefined) {
          at = copied;
          copies.set(view, at);
          copied += view.byteLength;
        }
        lastCopy = view;
        lastCopyAt = at;
      }
      places[3 * index] = 0;
      start = lastCopyAt;
    }
    places[3 * index + 1] = start;
    places[3 * index + 2] = start + view.byteLength;
  }
  const own = new Uint8Array(shared ? new SharedArrayBuffer(copied) : new ArrayBuffer(copied));
  for (const [view, at] of copies) own.set(view, at);
  memory[0] = own.buffer;
  return { memory, places, copied };
}
