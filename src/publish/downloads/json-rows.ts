// A JSON array of many records as a few big chunks: one string and one buffer per batch of rows,
// rather than a buffer per row (a million small buffers cost time and ~100 bytes of heap each).
import { type Encode, encodedTogether } from "../encoded-together.js";

const BATCH = 10_000;

/**
 * `[a,b,c]`, compact, in chunks of BATCH records: the bytes of `jsonList` over each encoded value.
 * `encode` makes each chunk's bytes (see encoded-together.ts).
 */
export function jsonRows<T>(
  records: readonly T[],
  rowValue: (record: T) => unknown,
  encode: Encode = encodedTogether,
): Buffer[] {
  if (records.length === 0) return [Buffer.from("[]")];
  const chunks: Buffer[] = [];
  for (let start = 0; start < records.length; start += BATCH) {
    const end = Math.min(start + BATCH, records.length);
    let text = start === 0 ? "[" : ",";
    for (let index = start; index < end; index++) {
      if (index > start) text += ",";
      text += JSON.stringify(rowValue(records[index] as T));
    }
    if (end === records.length) text += "]";
    chunks.push(...encode([text]));
  }
  return chunks;
}
