// The bundle's zip: made by a worker thread from the compiled code (`dist`, where the worker
// sits beside it), in this thread from the sources; the same bytes either way, and the caller's
// bodies left as they were.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { type ZipEntry, zip as zipInThread } from "../../../src/publish/downloads/zip.js";
import { ROOT } from "../../helpers.js";

function ownBuffer(text: string): Buffer {
  const buffer = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  buffer.write(text);
  return buffer;
}

/** ~3 MB of JSON rows in small chunks, as jsonRows gives them, some in one shared buffer. */
function entries(): ZipEntry[] {
  const shared = Buffer.from('{"number":1,"name":"Hôtel de Ville"},');
  const rows = Array.from({ length: 40_000 }, (_, index) =>
    index % 7 === 0
      ? shared.subarray(0, 12)
      : Buffer.from(`{"number":${index},"name":"Gare ${"é".repeat(index % 30)}"},`),
  );
  return [
    { name: "stations.json", body: [Buffer.from("["), ...rows, Buffer.from("]")] },
    // A buffer of its own (as encodedInChunks makes them), which a transfer would take away.
    { name: "contracts.csv", body: [ownBuffer("name\nLyon\n")] },
  ];
}

describe("zip", () => {
  it("gives the same bytes from its worker as in this thread, and leaves the bodies whole", async () => {
    const module = pathToFileURL(join(ROOT, "dist/publish/downloads/zip.js")).href;
    const { zip: zipInWorker } = (await import(module)) as { zip: typeof zipInThread };
    const given = entries();
    const before = given.map(({ body }) => Buffer.concat(body));
    const fromWorker = Buffer.concat(await zipInWorker(given));
    // Nothing of the caller's moved to the worker: still there, unchanged.
    expect(given.map(({ body }) => Buffer.concat(body))).toEqual(before);
    expect(fromWorker.equals(Buffer.concat(await zipInThread(entries())))).toBe(true);
    const unzipped = unzipSync(fromWorker);
    expect(Object.keys(unzipped)).toEqual(["stations.json", "contracts.csv"]);
    expect(Buffer.from(unzipped["stations.json"] as Uint8Array).equals(before[0] as Buffer)).toBe(
      true,
    );
  });
});
