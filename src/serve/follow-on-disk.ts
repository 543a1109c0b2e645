// `serve --out`: brings the tree on disk to a new release and records what the tree holds, for the log and /status.
import { existsSync, lstatSync, readdirSync } from "node:fs";
import { UserError } from "../errors.js";
import type { Release } from "../publish/release.js";
import { currentRelease, layoutOf, releasePaths } from "../tree/layout.js";
import { readTree } from "../tree/read-tree.js";
import { THEN_AGAIN } from "../tree/tree-error.js";
import { updateTree } from "../tree/update-tree.js";
import { writeTree } from "../tree/write-tree.js";
import type { Live } from "./live.js";

/** Returns null when the tree holds the release, else what went wrong and what the tree holds now. */
export async function followOnDisk(
  release: Release,
  out: string,
  live: Live,
): Promise<string | null> {
  try {
    // Its published link (or release folder) deleted by hand: this server, the tree's one writer,
    // writes it whole again, as at its start; nothing else may (a build of it is refused).
    if (treeGone(out)) await writeTree(release, out);
    else await updateTree(release, out);
    live.tree = { path: out, release: release.id, error: null };
    return null;
  } catch (cause) {
    const reason =
      cause instanceof UserError
        ? [cause.message, ...cause.details.map(triedAgain)].join("; ")
        : `internal error (a bug in velodata): ${(cause as Error).message}`;
    live.tree = { path: out, release: holdsWhole(out) ? live.release.id : null, error: reason };
    return reason;
  }
}

/**
 * A tree error's remedy, said of the server: one made where the tree is (space freed, access
 * given) is taken at its next refresh; another --out, only by a restart.
 */
const triedAgain = (detail: string): string =>
  detail.replace(
    THEN_AGAIN,
    /--out|a path inside it/.test(detail)
      ? "then restart the server with it"
      : "then the server writes the tree again at its next refresh",
  );

/** No tree there: no link (gone, or an empty folder made in its place), or no release folder. */
function treeGone(out: string): boolean {
  const layout = layoutOf(out);
  const name = currentRelease(layout);
  if (name !== null) return !existsSync(releasePaths(layout, name).tree);
  const there = lstatSync(layout.published, { throwIfNoEntry: false });
  return !there || (there.isDirectory() && readdirSync(layout.published).length === 0);
}

function holdsWhole(out: string): boolean {
  try {
    return !readTree(out).interrupted;
  } catch {
    return false;
  }
}
