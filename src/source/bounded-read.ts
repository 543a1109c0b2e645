// A source file's bytes, refused once past what a text can hold: `/dev/zero`, or a pipe whose
// writer never stops (`--state /dev/stdin`), read to their end filled the memory (7 GB in 30 s).
import { openSource } from "./pipe-open.js";

/** V8 cannot hold a longer string; past it there is no text to parse. */
export const MAX_TEXT = 0x1fffffe8;

/** A read that passed MAX_TEXT: `size` is the file's, or null when it is no file that ends. */
export class SourceTooLong extends Error {
  constructor(readonly size: number | null) {
    super(`more than ${MAX_TEXT} bytes`);
  }
}

/**
 * The bytes of `path` (a file, a device or a pipe), or SourceTooLong without reading past it; a
 * named pipe no program opens for writing within `writerWaitMs`, NoWriter (pipe-open.ts).
 */
export async function readBounded(path: string, writerWaitMs?: number): Promise<Buffer> {
  const handle = await openSource(path, writerWaitMs);
  try {
    const stat = await handle.stat();
    if (stat.isFile()) {
      // Its size known: said before a byte is read, and read as one buffer of that size.
      if (stat.size > MAX_TEXT) throw new SourceTooLong(stat.size);
      const bytes = await handle.readFile();
      if (bytes.length > MAX_TEXT) throw new SourceTooLong(bytes.length);
      return bytes;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK);
      // No position: a pipe cannot seek.
      const { bytesRead } = await handle.read(chunk, 0, CHUNK, null);
      if (bytesRead === 0) return Buffer.concat(chunks, size);
      size += bytesRead;
      if (size > MAX_TEXT) throw new SourceTooLong(null);
      chunks.push(chunk.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
}

const CHUNK = 1 << 20;
