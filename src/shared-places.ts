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
  const copies = new Map<Uint8Array, number>();
  let copied = 0;
  for (const view of views) {
    if (view.buffer instanceof SharedArrayBuffer || copies.has(view)) continue;
    copies.set(view, copied);
    copied += view.byteLength;
  }
  const own = new Uint8Array(shared ? new SharedArrayBuffer(copied) : new ArrayBuffer(copied));
  for (const [view, at] of copies) own.set(view, at);
  const memory: (ArrayBuffer | SharedArrayBuffer)[] = [own.buffer];
  const indexOf = new Map<SharedArrayBuffer, number>();
  const size = 3 * Float64Array.BYTES_PER_ELEMENT * views.length;
  const places = new Float64Array(shared ? new SharedArrayBuffer(size) : new ArrayBuffer(size));
  views.forEach((view, index) => {
    let buffer = 0;
    let start = copies.get(view) ?? 0;
    if (view.buffer instanceof SharedArrayBuffer) {
      let at = indexOf.get(view.buffer);
      if (at === undefined) {
        at = memory.push(view.buffer) - 1;
        indexOf.set(view.buffer, at);
      }
      buffer = at;
      start = view.byteOffset;
    }
    places[3 * index] = buffer;
    places[3 * index + 1] = start;
    places[3 * index + 2] = start + view.byteLength;
  });
  return { memory, places, copied };
}
