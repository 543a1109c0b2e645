// The published tree holds answers and nothing else: a build or refresh replaces it whole, and
// removes the release it replaced. Source data kept inside it would go with that release.
import { dirname, resolve } from "node:path";
import { UserError } from "../errors.js";
import { enclosingTree } from "./layout.js";

/**
 * Refuses a path the user keeps (`--source`, `--state`, `--keys`, synth's `--out`) that lies in a
 * published tree, found through the tree's own symlink too. A path that does not exist yet is
 * judged by the nearest folder above it that does; one whose folders are all missing is left to
 * the reader that says so.
 */
export function refuseInsideTree(path: string, option: string): void {
  for (let folder = resolve(path); ; folder = dirname(folder)) {
    let tree: string | null;
    try {
      tree = enclosingTree(folder);
    } catch {
      if (dirname(folder) === folder) return;
      continue; // not there (yet): its folder is judged
    }
    if (tree === null) return;
    throw new UserError(
      `${option} ${path} is inside the tree velodata publishes at ${tree}: its next build or refresh would delete it`,
      ["keep it outside the published tree (the tree holds the answers, nothing else)"],
    );
  }
}
