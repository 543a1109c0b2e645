// The store beside a published path (`.NAME.velodata`): made by a tree's first write, and removed
// again when that write is refused or fails, so that a refused --out leaves the disk as it was.
import { mkdirSync, readdirSync, rmdirSync } from "node:fs";
import { join } from "node:path";
import type { TreeLayout } from "./layout.js";
import { removeTree } from "./remove-tree.js";
import { treeWriteError } from "./tree-error.js";

/** The writers' lock, in the store (see lock.ts). */
export const LOCK_FILE = "lock";

/**
 * Makes the store, whose parent folder the caller made or found; true when this call made it. Not
 * a recursive mkdir: where mkdir says ENOENT under a folder that exists (/proc), Node's retried
 * forever.
 */
export function makeStore(layout: TreeLayout): boolean {
  try {
    mkdirSync(layout.store, { mode: 0o755 });
    return true;
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw treeWriteError(cause, layout.published, "nothing was written");
  }
}

/**
 * Empties a store this process made, under its lock (`lock` stays, its holder removes it): what
 * the refused write put there (a release folder, a server's mark) was nobody else's. Never throws:
 * the error that refused the write is the one to say.
 */
export function emptyNewStore(layout: TreeLayout): void {
  try {
    for (const entry of readdirSync(layout.store))
      if (entry !== LOCK_FILE) removeTree(join(layout.store, entry));
  } catch {}
}

/** Removes the store if nothing is left in it: another writer's lock, taken meanwhile, keeps it. */
export function removeEmptyStore(layout: TreeLayout): void {
  try {
    rmdirSync(layout.store);
  } catch {}
}
