// What a build stopped before it finished leaves in the store: the release folder it was writing,
// or the one it replaced (in `releases/`, or in `removing/` if its removal was cut short). The
// next build removes them; a tree kept up by cron refreshes alone would keep them for good (at a
// million stations, gigabytes), so each refresh removes them too.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { asideFolder, currentRelease, releasesBut, type TreeLayout } from "./layout.js";
import { takeLock } from "./lock.js";
import { LONGEST_WRITE_MS } from "./lock-holder.js";
import { removeInBackground } from "./remove-in-background.js";

/**
 * How many release folders but the served one were found (under the lock) and removed; `now` is a
 * parameter so that tests can be an hour later.
 */
export async function removeLeftoverReleases(
  layout: TreeLayout,
  now = Date.now(),
): Promise<number> {
  let unlock: () => void;
  try {
    unlock = takeLock(layout);
  } catch {
    return 0; // another writer holds the tree now: its folders are its own
  }
  let leftovers: string[];
  try {
    leftovers = [...releasesBut(layout, currentRelease(layout)), ...stoppedRemovals(layout, now)];
  } finally {
    unlock();
  }
  // Named under the lock: a build that starts now writes a folder of another name.
  await removeInBackground(leftovers);
  return leftovers.length;
}

/**
 * The folders in `removing/` moved there over an hour ago (a rename sets a folder's change time):
 * the process a build left removing a younger one may still be at it (see remove-detached.ts).
 */
function stoppedRemovals(layout: TreeLayout, now: number): string[] {
  const folder = asideFolder(layout);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names
    .map((name) => join(folder, name))
    .filter((path) => {
      const changed = statSync(path, { throwIfNoEntry: false })?.ctimeMs;
      return changed !== undefined && now - changed > LONGEST_WRITE_MS;
    });
}
