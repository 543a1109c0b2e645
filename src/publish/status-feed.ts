// A contract's GBFS station_status (one version) as one buffer, with where each station's entry
// sits in it: a refresh writes the entries that changed and copies each run of unchanged ones
// from the previous feed, then hashes one buffer, instead of gathering ~4,000 chunks per feed.
import type { Freshness, GbfsVersion } from "./render/gbfs/feed.js";
import { stationStatusFrame } from "./render/gbfs/station-status.js";

export interface StatusFeed {
  /** The whole body, byte for byte stationStatusBody's. */
  readonly bytes: Buffer;
  /** Each entry's start and end in `bytes`, by position in the contract's stations. */
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
}

const OPEN = 0x5b;
const COMMA = 0x2c;
const CLOSE = 0x5d;

/**
 * The feed of `count` entries: the text in `written` where there is one (a station rendered
 * again), else the entry at the same position of `prior` (the same stations' feed), else `kept`'s.
 */
export function statusFeed(
  version: GbfsVersion,
  freshness: Freshness,
  count: number,
  written: readonly (string | undefined)[],
  prior: StatusFeed | undefined,
  kept: (position: number) => Uint8Array,
): StatusFeed {
  const [head, tail] = stationStatusFrame(version, freshness);
  // `[`, `]` and a comma between entries.
  let size = Buffer.byteLength(head) + Buffer.byteLength(tail) + 2 + Math.max(0, count - 1);
  for (let position = 0; position < count; position++) {
    const text = written[position];
    size +=
      text !== undefined
        ? Buffer.byteLength(text)
        : prior
          ? (prior.ends[position] as number) - (prior.starts[position] as number)
          : kept(position).byteLength;
  }
  const bytes = Buffer.allocUnsafe(size);
  const starts = new Uint32Array(count);
  const ends = new Uint32Array(count);
  let at = bytes.write(head, 0);
  bytes[at++] = OPEN;
  for (let position = 0; position < count; position++) {
    if (position > 0) bytes[at++] = COMMA;
    const text = written[position];
    if (text !== undefined) {
      starts[position] = at;
      at += bytes.write(text, at);
      ends[position] = at;
    } else if (prior) {
      // The run of unchanged entries from here, commas between them included: one copy.
      let last = position;
      while (last + 1 < count && written[last + 1] === undefined) last++;
      const from = prior.starts[position] as number;
      const shift = at - from;
      for (let each = position; each <= last; each++) {
        starts[each] = (prior.starts[each] as number) + shift;
        ends[each] = (prior.ends[each] as number) + shift;
      }
      at += prior.bytes.copy(bytes, at, from, prior.ends[last] as number);
      position = last;
    } else {
      starts[position] = at;
      const entry = kept(position);
      bytes.set(entry, at);
      at += entry.byteLength;
      ends[position] = at;
    }
  }
  bytes[at++] = CLOSE;
  at += bytes.write(tail, at);
  if (at !== size) throw new Error("bug: a station_status feed not of the size counted");
  return { bytes, starts, ends };
}
