// A GBFS station_status feed's strong ETag, made from its entries' digests rather than from its
// bytes, as a list's is made from its members' tags: a refresh hashes only the entries it rendered
// again (a server at a million stations gathered ~550 MB of entries a minute to hash its feeds
// whole). It stays a function of the bytes: the same head, entries and tail give the same tag,
// whichever made them (build, cron refresh, server); other bytes, another tag.
import * as crypto from "node:crypto";
import { oneShotSha1Latin1 } from "./sha1.js";

/** Bytes of one entry's digest (SHA-1) in a column. */
export const DIGEST_SIZE = 20;

/**
 * Each entry's SHA-1 of one feed (one contract, one GBFS version), in the feed's order: entry `i`
 * at `i * DIGEST_SIZE`.
 */
export type DigestColumn = Buffer;

// Tells a feed's tag from that of a file whose bytes would be its head, digests and tail.
const STATUS_TAG = "velodata station_status of these entries:\n";

/** Writes the digest of `entry` at `position` of `column`. */
export function putDigest(column: DigestColumn, position: number, entry: Uint8Array): void {
  column.write(oneShotSha1Latin1(entry), position * DIGEST_SIZE, DIGEST_SIZE, "latin1");
}

/** The column of these entries, every one hashed. */
export function digestColumn(entries: readonly Uint8Array[]): DigestColumn {
  const column = Buffer.allocUnsafe(entries.length * DIGEST_SIZE);
  for (let position = 0; position < entries.length; position++)
    putDigest(column, position, entries[position] as Uint8Array);
  return column;
}

/**
 * The ETag (unquoted, base64url as the others) of the feed `head`, the entries whose digests
 * `column` holds, `tail`: joined as stationStatusBody joins them (`[`, `]` and commas, which their
 * count fixes).
 */
export function statusTag(head: Uint8Array, column: DigestColumn, tail: Uint8Array): string {
  const hash = crypto.createHash("sha1").update(STATUS_TAG);
  return hash.update(head).update(column).update(tail).digest("base64url");
}

/**
 * A contract's column from a column of all stations (station `i` at `i * DIGEST_SIZE`): `group`
 * its stations' positions among all, in its order; copied a run of neighbours at a time (a
 * contract's stations are usually one run).
 */
export function gatherDigests(all: Buffer, group: readonly number[]): DigestColumn {
  const column = Buffer.allocUnsafe(group.length * DIGEST_SIZE);
  eachRun(group, (position, first, length) => {
    all.copy(column, position * DIGEST_SIZE, first * DIGEST_SIZE, (first + length) * DIGEST_SIZE);
  });
  return column;
}

/** The other way: a contract's column written into the column of all stations. */
export function scatterDigests(column: DigestColumn, group: readonly number[], all: Buffer): void {
  eachRun(group, (position, first, length) => {
    column.copy(
      all,
      first * DIGEST_SIZE,
      position * DIGEST_SIZE,
      (position + length) * DIGEST_SIZE,
    );
  });
}

/** Each run of consecutive stations in `group`: its place in the group, first station, length. */
function eachRun(
  group: readonly number[],
  visit: (position: number, first: number, length: number) => void,
): void {
  let position = 0;
  while (position < group.length) {
    const first = group[position] as number;
    let length = 1;
    while (group[position + length] === first + length) length++;
    visit(position, first, length);
    position += length;
  }
}
