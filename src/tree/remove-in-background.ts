// Folders removed by worker threads: the release a build replaced is ~200,000 files at 100,000
// stations (~1.4 s of unlink calls on tmpfs, ten times that at a million), removed on both cores
// while the build saves its refresh state, rather than before it. One worker alone left the build
// waiting for it ~1.4 s after its last step.
import { existsSync, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { removeTree } from "./remove-tree.js";

// Compiled beside this module; absent when running from the TypeScript sources (tests).
const WORKER = new URL("./remove-worker.js", import.meta.url);

// Two cores on the machines this is measured on; more workers than cores only contend.
const WORKERS = 2;

/**
 * Removes `folders` and resolves once they are gone, or once the removal failed: what is left
 * goes at the next build (or refresh), as before. The workers keep the process alive until they
 * are done.
 */
export async function removeInBackground(folders: readonly string[]): Promise<void> {
  if (folders.length === 0) return;
  if (!existsSync(WORKER)) {
    try {
      for (const folder of folders) removeTree(folder);
    } catch {}
    return;
  }
  let parts: string[] = [];
  try {
    parts = partsOf(folders);
  } catch {}
  // Each worker every other part (the parts of one kind are neighbours), then one removes what
  // is left around them.
  await Promise.all(
    Array.from({ length: WORKERS }, (_, worker) =>
      removeInWorker(parts.filter((_, index) => index % WORKERS === worker)),
    ),
  );
  await removeInWorker(folders);
}

/**
 * The folders under `folders` that hold no folder (each contract's stations of a surface…): the
 * files are in them. A folder's link count is 2 plus its subfolders on ext4, XFS and tmpfs, so
 * only folders that hold folders are read; where it says otherwise (btrfs: always 1), `folders`
 * come back whole, for one worker.
 */
function partsOf(folders: readonly string[]): string[] {
  const parts: string[] = [];
  const toRead = [...folders];
  for (let folder = toRead.pop(); folder !== undefined; folder = toRead.pop()) {
    if (lstatSync(folder).nlink <= 2) {
      parts.push(folder);
      continue;
    }
    for (const entry of readdirSync(folder, { withFileTypes: true }))
      if (entry.isDirectory()) toRead.push(join(folder, entry.name));
  }
  return parts;
}

function removeInWorker(folders: readonly string[]): Promise<void> {
  if (folders.length === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const worker = new Worker(WORKER, { workerData: folders });
    worker.once("error", () => resolve());
    worker.once("exit", () => resolve());
  });
}
