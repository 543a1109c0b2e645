// The bundle's zip, made by archiver in a worker thread when the compiled worker is there: its
// level-9 deflate of the tables (~0.65 s at 100,000 stations, ~6.5 s at a million) then runs
// beside this thread's rendering of the rest, instead of this thread waiting for it. Here it
// could not overlap: a zip stream moves one piece each time the event loop turns, and rendering
// never lets it turn. The bytes are the same either way.
import { existsSync } from "node:fs";
import { workerAnswer } from "../../worker-answer.js";
import { ownCopy, type ZipEntry, zipHere } from "./zip-here.js";

export type { ZipEntry };

// Compiled beside this module; absent when running from the TypeScript sources (tests).
const WORKER = new URL("./zip-worker.js", import.meta.url);

/** The zip of `entries`, each dated `date` (see zipHere). */
export async function zip(entries: readonly ZipEntry[], date?: Date): Promise<Uint8Array[]> {
  // Each entry in pieces of their own (never views of Node's shared pools): moved to the worker,
  // not copied. Cut where they always were, so that the bytes are those of earlier versions.
  const moved = entries.map(({ name, body }) => ({ name, body: pieces(body) }));
  if (!existsSync(WORKER)) return zipHere(moved, date);
  const transferList = moved.flatMap(({ body }) =>
    body.map((piece) => piece.buffer as ArrayBuffer),
  );
  return [
    await workerAnswer<Uint8Array>(WORKER, "the zip worker", {
      workerData: { entries: moved, date },
      transferList,
    }),
  ];
}

// Deflate streams pay per write: hand them megabytes, not one small buffer per station.
const PIECE = 1 << 20;

/** `chunks` copied into pieces of PIECE bytes or a little more, each its own ArrayBuffer. */
function pieces(chunks: readonly Uint8Array[]): Uint8Array[] {
  const made: Uint8Array[] = [];
  let pending: Uint8Array[] = [];
  let size = 0;
  const flush = () => {
    made.push(ownCopy(pending, size));
    pending = [];
    size = 0;
  };
  for (const chunk of chunks) {
    pending.push(chunk);
    size += chunk.byteLength;
    if (size >= PIECE) flush();
  }
  if (size > 0) flush();
  return made;
}
