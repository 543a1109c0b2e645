// Whether a tree read earlier is still, as it was then, what its published path serves: no build or refresh since.
import { existsSync, statSync } from "node:fs";
import { currentRelease, layoutOf } from "./layout.js";
import type { Tree } from "./read-tree.js";

/**
 * The tree read before (readTree) is still what `outDir` publishes, as it was then: the same
 * release, not marked dirty (a refresh moving files in), its manifest the same file (a refresh
 * that ended since sealed a new one). A file read from the tree before this answers true holds
 * the bytes that manifest lists.
 */
export function unchangedSince(tree: Tree, outDir: string): boolean {
  if (tree.interrupted || !tree.manifest) return false;
  const { layout, release } = tree;
  if (layoutOf(outDir).published !== layout.published) return false;
  if (currentRelease(layout) !== release.name || existsSync(release.dirty)) return false;
  return statSync(release.manifest, { throwIfNoEntry: false })?.ctimeMs === tree.sealedAt;
}
