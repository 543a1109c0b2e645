// Folders removed by a worker thread: the release a build replaced is ~200,000 files at 100,000
// stations (~1.6 s of unlink calls on tmpfs, ten times that at a million), removed on the other
// core while the build saves its refresh state, rather than before it.
import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { removeTree } from "./remove-tree.js";

// Compiled beside this module; absent when running from the TypeScript sources (tests).
const WORKER = new URL("./remove-worker.js", import.meta.url);

/**
 * Removes `folders` and resolves once they are gone, or once the removal failed: what is left
 * goes at the next build, as before. The worker keeps the process alive until it is done.
 */
export function removeInBackground(folders: readonly string[]): Promise<void> {
  if (folders.length === 0) return Promise.resolve();
  if (!existsSync(WORKER)) {
    try {
      for (const folder of folders) removeTree(folder);
    } catch {}
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const worker = new Worker(WORKER, { workerData: folders });
    worker.once("error", () => resolve());
    worker.once("exit", () => resolve());
  });
}
