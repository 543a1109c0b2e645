// What a build stopped before it finished leaves in the store: the release folder it was writing,
// or the one it replaced (in `releases/`, or in `removing/` if its removal was cut short). The
// next build removes them; a tree kept up by cron refreshes alone would keep them for good (at a
// million stations, gigabytes), so each refresh removes them too. Either sets them aside under
// the lock and leaves their unlink calls (~100 s on disk at a million stations) to a process of
// its own, as a build does with the release it replaced.
import { mkdirSync, readdirSync, renameSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { asideFolder, currentRelease, releasesBut, type TreeLayout } from "./layout.js";
import { takeLock } from "./lock.js";
import { LONGEST_WRITE_MS } from "./lock-holder.js";
import { removeDetached } from "./remove-detached.js";

export interface LeftoverOptions {
  /** A parameter so that tests can be an hour later. */
  now?: number;
  /** Removes the folders set aside, without being awaited (see removeDetached). */
  remove?: (folders: readonly string[]) => Promise<void> | number;
}

/**
 * How many release folders but the served one were found under the lock and handed to `remove`,
 * or 0 when another writer holds the tree (its folders are its own).
 */
export function removeLeftoverReleases(layout: TreeLayout, options: LeftoverOptions = {}): number {
  let unlock: () => void;
  try {
    unlock = takeLock(layout);
  } catch {
    return 0;
  }
  let leftovers: string[];
  try {
    leftovers = [
      ...setAsideAll(layout, releasesBut(layout, currentRelease(layout))),
      ...stoppedRemovals(layout, options.now ?? Date.now()).map(claimed),
    ];
  } finally {
    unlock();
  }
  if (leftovers.length > 0)
    Promise.resolve((options.remove ?? removeDetached)(leftovers)).catch(() => {});
  return leftovers.length;
}

/**
 * A release removed after the lock is let go (a minute at a million stations) is first moved out
 * of `releases/`, under the lock: a refresh meanwhile takes what is left there for a stopped
 * build's. The move sets its change time, which tells a refresh that its removal is under way.
 * Where it cannot be moved, it is removed where it is.
 */
export function setAside(layout: TreeLayout, folder: string): string {
  try {
    mkdirSync(asideFolder(layout), { recursive: true });
    const aside = join(asideFolder(layout), basename(folder));
    renameSync(folder, aside);
    return aside;
  } catch {
    return folder;
  }
}

export const setAsideAll = (layout: TreeLayout, folders: readonly string[]): string[] =>
  folders.map((folder) => setAside(layout, folder));

/**
 * The folders in `removing/` moved there over an hour ago: the process a build or a refresh left
 * removing a younger one may still be at it.
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

/**
 * `folder` renamed in `removing/` (`NAME+TIME`), which sets its change time to now: the refreshes
 * of the next hour leave it to the remover this one starts, rather than start one each minute.
 */
function claimed(folder: string): string {
  const name = basename(folder).split("+")[0];
  const renamed = join(dirname(folder), `${name}+${Date.now().toString(36)}`);
  try {
    renameSync(folder, renamed);
    return renamed;
  } catch {
    return folder;
  }
}
