// Range requests (RFC 9110 §14): one range of an answer's bytes, so that a download cut short is
// resumed where it stopped (`curl -C -`, a browser's, a download manager's), as nginx serves the
// same files from the tree.
import parseRange from "range-parser";

/** What a request's Range asks of the representation to send. */
export type RangeAsked =
  /** The whole answer: the range is not one this server serves apart (see rangeAsked). */
  | { kind: "whole" }
  /** The bytes from `start` to `end`, both included. */
  | { kind: "part"; start: number; end: number }
  /** Only bytes past its end: 416, with the size. */
  | { kind: "unsatisfiable" };

const WHOLE: RangeAsked = { kind: "whole" };

/**
 * What `range` asks of a representation of `size` bytes tagged `etag`. The whole answer, as the RFC
 * lets a server choose, for a range in another unit or not well formed, for an If-Range that no
 * longer names this representation (a date does not: this server gives no Last-Modified), and for
 * several ranges that do not join into one (nginx would send them as multipart/byteranges; no
 * download resumes that way).
 */
export function rangeAsked(
  range: string,
  ifRange: string | readonly string[] | undefined,
  etag: string,
  size: number,
): RangeAsked {
  // RFC 9110 §13.1.5: a strong comparison; a weak tag never matches (nor a header given twice).
  if (ifRange !== undefined && (typeof ifRange !== "string" || ifRange.trim() !== etag))
    return WHOLE;
  const ranges = parseRange(size, range, { combine: true });
  if (ranges === -2) return WHOLE;
  if (ranges === -1) return { kind: "unsatisfiable" };
  // RFC 9110 §14.1: a range unit's name is case-insensitive (nginx takes `BYTES=` too).
  if (ranges.type.toLowerCase() !== "bytes" || ranges.length !== 1) return WHOLE;
  const { start, end } = ranges[0] as parseRange.Range;
  return { kind: "part", start, end };
}

/** The chunks of `body` that hold its bytes from `start` to `end` (included): views, no copy. */
export function bytesBetween(
  body: readonly Uint8Array[],
  start: number,
  end: number,
): Uint8Array[] {
  const part: Uint8Array[] = [];
  let at = 0;
  for (const chunk of body) {
    const next = at + chunk.byteLength;
    if (next > start && at <= end)
      part.push(chunk.subarray(Math.max(0, start - at), Math.min(chunk.byteLength, end + 1 - at)));
    if (next > end) break;
    at = next;
  }
  return part;
}
