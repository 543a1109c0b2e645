// What a build killed before it finished leaves in the store: the release folder it was writing,
// or the one it replaced. The next build removes them; a tree kept up by cron refreshes alone
// would keep them for good (at a million stations, gigabytes), so each refresh removes them too.
import { currentRelease, releasesBut, type TreeLayout } from "./layout.js";
import { takeLock } from "./lock.js";
import { removeInBackground } from "./remove-in-background.js";

/** How many release folders but the served one were found (under the lock) and removed. */
export async function removeLeftoverReleases(layout: TreeLayout): Promise<number> {
  let unlock: () => void;
  try {
    unlock = takeLock(layout);
  } catch {
    return 0; // another writer holds the tree now: its folders are its own
  }
  let leftovers: string[];
  try {
    leftovers = releasesBut(layout, currentRelease(layout));
  } finally {
    unlock();
  }
  // Named under the lock: a build that starts now writes a folder of another name.
  await removeInBackground(leftovers);
  return leftovers.length;
}
