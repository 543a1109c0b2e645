// The variants of the answers a refresh changed, made in the thread pool after the swap: only
// those, so the release's index is never copied to add them (see addVariants).
import { type CompressionBudget, compressFile } from "../publish/compress.js";
import type { ReleaseFile } from "../publish/release.js";

// As compressRelease: more in flight only holds more joined bodies in memory.
const IN_FLIGHT = 4;

/** Each changed answer worth compressing, with its variants, by path. */
export async function changedVariants(
  changed: ReadonlyMap<string, ReleaseFile>,
  budget: CompressionBudget,
): Promise<Map<string, ReleaseFile>> {
  // Biggest first, so that the longest job does not start last.
  const todo = [...changed].sort(([, a], [, b]) => b.size - a.size);
  // One file at several paths (GBFS v2 feeds) is compressed once.
  const made = new Map<ReleaseFile, Promise<ReleaseFile>>();
  const done = new Map<string, ReleaseFile>();
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const [path, file] = todo[next++] as [string, ReleaseFile];
      let compressed = made.get(file);
      if (!compressed) {
        compressed = compressFile(file, budget);
        made.set(file, compressed);
      }
      const result = await compressed;
      if (result !== file) done.set(path, result);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return done;
}
