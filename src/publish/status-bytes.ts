// One contract's station_status feed (one GBFS version) as one buffer with each station's entry
// located in it: a refresh copies the runs of unchanged entries and writes only the changed ones,
// and the feed is hashed as it is, instead of gathering 4,000 chunks per contract every minute.

/** The feed's bytes and where each entry (in source order) starts and ends in them. */
export interface StatusBytes {
  readonly bytes: Buffer;
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
}

/**
 * `head`, the entries joined by commas, `tail`: each entry given as its JSON text or, when already
 * encoded, its bytes.
 */
export function wholeStatus(
  head: string,
  tail: string,
  entries: readonly (string | Uint8Array)[],
): StatusBytes {
  const count = entries.length;
  let size = Buffer.byteLength(head) + Buffer.byteLength(tail) + Math.max(0, count - 1);
  for (const entry of entries)
    size += typeof entry === "string" ? Buffer.byteLength(entry) : entry.byteLength;
  const bytes = Buffer.allocUnsafeSlow(size);
  const starts = new Uint32Array(count);
  const ends = new Uint32Array(count);
  let at = bytes.write(head, 0);
  for (let index = 0; index < count; index++) {
    if (index > 0) bytes[at++] = COMMA;
    const entry = entries[index] as string | Uint8Array;
    starts[index] = at;
    if (typeof entry === "string") at += bytes.write(entry, at);
    else {
      bytes.set(entry, at);
      at += entry.byteLength;
    }
    ends[index] = at;
  }
  bytes.write(tail, at);
  return { bytes, starts, ends };
}

/**
 * `prior` with a new head and tail and the entries at `fresh` (ascending positions) replaced by
 * `texts`; undefined when `fresh` does not fit it.
 */
export function patchedStatus(
  prior: StatusBytes,
  head: string,
  tail: string,
  fresh: readonly number[],
  texts: readonly string[],
): StatusBytes | undefined {
  const count = prior.starts.length;
  if (count === 0 || fresh.length !== texts.length) return undefined;
  const sizes = texts.map((text) => Buffer.byteLength(text));
  const first = prior.starts[0] as number;
  const last = prior.ends[count - 1] as number;
  let size = Buffer.byteLength(head) + (last - first) + Buffer.byteLength(tail);
  for (let at = 0; at < fresh.length; at++) {
    const position = fresh[at] as number;
    if (position >= count || (at > 0 && position <= (fresh[at - 1] as number))) return undefined;
    size +=
      (sizes[at] as number) -
      ((prior.ends[position] as number) - (prior.starts[position] as number));
  }
  const bytes = Buffer.allocUnsafeSlow(size);
  const starts = new Uint32Array(count);
  const ends = new Uint32Array(count);
  let at = bytes.write(head, 0);
  // `from`: where the run of unchanged bytes being copied starts in prior; `shift`: how far an
  // unchanged entry moved.
  let from = first;
  let shift = at - first;
  let next = 0; // the first entry whose place is not yet set
  for (let index = 0; index < fresh.length; index++) {
    const position = fresh[index] as number;
    for (; next < position; next++) {
      starts[next] = (prior.starts[next] as number) + shift;
      ends[next] = (prior.ends[next] as number) + shift;
    }
    at += prior.bytes.copy(bytes, at, from, prior.starts[position] as number);
    starts[position] = at;
    at += bytes.write(texts[index] as string, at);
    ends[position] = at;
    from = prior.ends[position] as number;
    shift = at - from;
    next = position + 1;
  }
  for (; next < count; next++) {
    starts[next] = (prior.starts[next] as number) + shift;
    ends[next] = (prior.ends[next] as number) + shift;
  }
  at += prior.bytes.copy(bytes, at, from, last);
  bytes.write(tail, at);
  return { bytes, starts, ends };
}

/** The feed as chunks: head, each entry (a view of the bytes), the commas and the tail. */
export function statusChunks(status: StatusBytes): { chunks: Buffer[]; entries: Buffer[] } {
  const { bytes, starts, ends } = status;
  const count = starts.length;
  const entries: Buffer[] = new Array(count);
  const chunks: Buffer[] = [bytes.subarray(0, count > 0 ? starts[0] : bytes.length)];
  for (let index = 0; index < count; index++) {
    if (index > 0) chunks.push(COMMA_CHUNK);
    const entry = bytes.subarray(starts[index], ends[index]);
    entries[index] = entry;
    chunks.push(entry);
  }
  if (count > 0) chunks.push(bytes.subarray(ends[count - 1]));
  return { chunks, entries };
}

const COMMA = 0x2c;
const COMMA_CHUNK = Buffer.from(",");
