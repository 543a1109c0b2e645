// Trees of velodata before the store layout: a plain folder holding `.velodata-release.json`.
import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { isRunning } from "./lock-holder.js";

/** Marked a tree as ours in the old layout; such a folder may be replaced by a build. */
export const LEGACY_MARKER = ".velodata-release.json";

export const isLegacyTree = (folder: string): boolean => existsSync(join(folder, LEGACY_MARKER));

/**
 * The old build swapped with two renames: one killed between them left no tree and an `.old`
 * folder beside it, which goes back in place. Its staging and old folders of processes that no
 * longer run are debris.
 */
export function recoverLegacySwap(published: string): void {
  const parent = dirname(published);
  const name = basename(published);
  const prefixes = [`.${name}.staging-`, `.${name}.old-`];
  for (const entry of readdirSync(parent)) {
    const prefix = prefixes.find((candidate) => entry.startsWith(candidate));
    if (!prefix) continue;
    const pid = Number(entry.slice(prefix.length).split("-")[0]);
    if (pid !== process.pid && isRunning(pid)) continue;
    const path = join(parent, entry);
    if (prefix === prefixes[1] && !existsSync(published) && isLegacyTree(path)) {
      renameSync(path, published);
    } else {
      rmSync(path, { recursive: true, force: true });
    }
  }
}
