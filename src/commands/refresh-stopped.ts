// What a refresh stopped by SIGINT or SIGTERM says as the process ends. Until it moves its first
// file into the tree it has changed nothing; from then until the seal its stops wait (a second one
// does not), so the line after it is read from the disk: the dirty mark says a mix was left.
import { existsSync } from "node:fs";
import { currentRelease, layoutOf, releasePaths } from "../tree/layout.js";

/** `moving`: whether the refresh had begun to move its files into the tree. */
export function refreshStopped(out: string, moving: boolean): string {
  if (!moving) return `refresh stopped; the tree at ${out} is unchanged`;
  const layout = layoutOf(out);
  const release = currentRelease(layout);
  return release !== null && existsSync(releasePaths(layout, release).dirty)
    ? `refresh stopped while moving its files in; the tree at ${out} is partly updated and marked so: the next refresh or build repairs it`
    : `refresh stopped once its files were in; the tree at ${out} is the new release, whole`;
}
