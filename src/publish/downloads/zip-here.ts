// A zip of named bodies by archiver, in this thread, deterministic: the same pieces give the same bytes.
import { Readable } from "node:stream";
import { ZipArchive } from "archiver";

// Without the data's own time, entries carry a fixed one: the same data always gives the same bytes.
const FIXED_DATE = new Date("2000-01-01T00:00:00Z");

export interface ZipEntry {
  name: string;
  /** In pieces of about a megabyte (see zip.ts): the deflate stream is given them as they are. */
  body: readonly Uint8Array[];
}

/**
 * `date`: every entry's modification time, the time the data last changed, so that an unzipped
 * file says when its data is from (never the time of the run: the same data gives the same bytes).
 */
export async function zipHere(
  entries: readonly ZipEntry[],
  date: Date = FIXED_DATE,
): Promise<Uint8Array[]> {
  const archive = new ZipArchive({ zlib: { level: 9 } });
  const chunks: Uint8Array[] = [];
  archive.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    archive.on("end", resolve);
    archive.on("error", reject);
  });
  for (const entry of entries) {
    // A stream over the pieces: archiver reads entries one after the other.
    archive.append(Readable.from(entry.body, { objectMode: false }), {
      name: entry.name,
      date,
    });
  }
  await archive.finalize();
  await done;
  return chunks;
}

/**
 * `chunks` copied into one buffer of `size` bytes with an ArrayBuffer of its own (never a view of
 * Node's shared pool): one that can be moved to or from a worker thread.
 */
export function ownCopy(chunks: readonly Uint8Array[], size: number): Buffer {
  const own = Buffer.allocUnsafeSlow(size);
  let at = 0;
  for (const chunk of chunks) {
    own.set(chunk, at);
    at += chunk.byteLength;
  }
  return own;
}
