// A release folder this process may not remove: one written by a velodata command run as another
// user (a `build` as root in a tree the server keeps as its own user). Its removal would fail in a
// process of its own, where no one hears it, and the folder (gigabytes at a million stations)
// would stay for good: said instead, with what to do.
import { accessSync, constants, statSync } from "node:fs";
import { currentRelease, releasesBut, type TreeLayout } from "./layout.js";

/** The release folders but the served one that this process cannot remove the files of. */
export function stuckReleases(layout: TreeLayout): string[] {
  let folders: string[];
  try {
    folders = releasesBut(layout, currentRelease(layout));
  } catch {
    return [];
  }
  return folders.filter((folder) => {
    try {
      // Removing a folder's files takes writing to it; root may, whatever its mode.
      accessSync(folder, constants.W_OK);
      return false;
    } catch {
      return true;
    }
  });
}

/** What to say of a folder stuckReleases found (a warning's words, without its prefix). */
export function stuckSaid(folder: string): string {
  const owner = ownerOf(folder);
  const whose =
    owner === undefined
      ? ""
      : ` (it belongs to user ${owner}, this process runs as user ${process.getuid?.()})`;
  return `${folder} cannot be removed by this process${whose}: a velodata command run as another user wrote it; remove it as that user (rm -r), and run velodata's commands on this tree as the user that keeps it`;
}

function ownerOf(folder: string): number | undefined {
  try {
    return statSync(folder).uid;
  } catch {
    return undefined;
  }
}
