// Compact JSON bodies, with lists assembled from already-encoded items rather than one big string.

const OPEN = Buffer.from("[");
const COMMA = Buffer.from(",");
const CLOSE = Buffer.from("]");

export const encodeJson = (value: unknown): Buffer => Buffer.from(JSON.stringify(value), "utf8");

/** `[a,b,c]` as chunks that share the items' buffers: a million stations cost no copy. */
export function jsonList(items: readonly Uint8Array[]): Uint8Array[] {
  const chunks: Uint8Array[] = [OPEN];
  items.forEach((item, index) => {
    if (index > 0) chunks.push(COMMA);
    chunks.push(item);
  });
  chunks.push(CLOSE);
  return chunks;
}
