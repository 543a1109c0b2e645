// The items of a spliced list: stations rendered again, and runs of unchanged ones as published.

/** The items of a list `[…]`: a station rendered again, or a run of unchanged ones as published. */
export interface Items {
  items: Uint8Array[];
  /** Per item: the first station it holds (a position in the dataset's stations). */
  firsts: number[];
  size: number;
}

/** Where the stations' bytes sit in one published list: start and size per station. */
export interface Span {
  bytes: Buffer;
  starts: ArrayLike<number>;
  /** Sizes as published; a station rendered again gets its new size. */
  sizes: Int32Array;
}

/**
 * The items of a list of `members` (positions, in order): a station rendered again is its own
 * item; consecutive unchanged stations that are neighbours in the published bytes (`adjacent`:
 * the next position) are one slice of them, commas between them included.
 */
export function itemsOf(
  members: readonly number[],
  fresh: readonly boolean[],
  rendering: (index: number) => Uint8Array,
  span: Span,
  adjacent: boolean,
): Items {
  const items: Uint8Array[] = [];
  const firsts: number[] = [];
  let size = 2 + Math.max(0, members.length - 1);
  let runFirst = -1;
  let runLast = -1;
  const closeRun = () => {
    if (runFirst < 0) return;
    const start = span.starts[runFirst] as number;
    const end = (span.starts[runLast] as number) + (span.sizes[runLast] as number);
    items.push(span.bytes.subarray(start, end));
    firsts.push(runFirst);
    runFirst = -1;
  };
  for (const index of members) {
    size += span.sizes[index] as number;
    if (fresh[index]) {
      closeRun();
      items.push(rendering(index));
      firsts.push(index);
    } else if (runFirst >= 0 && (!adjacent || index === runLast + 1)) runLast = index;
    else {
      closeRun();
      runFirst = index;
      runLast = index;
    }
  }
  closeRun();
  return { items, firsts, size };
}
