// One writer per tree: builds and refreshes (from cron, or a server's loop) take the store's lock.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../errors.js";
import { currentRelease, type TreeLayout } from "./layout.js";
import { createLock, isStale, type LockOwner, lockOwner, takeOver } from "./lock-file.js";
import { isRunning, isServing } from "./lock-holder.js";
import { LOCK_FILE, makeStore } from "./store-folder.js";
import { NOTHING_CHANGED, TREE_UNCHANGED, treeWriteError } from "./tree-error.js";

const heldHere = new Set<string>();
// The trees this process keeps (`serve --out`): marks of its own pid it did not make are a reused pid's.
const keptHere = new Set<string>();

/**
 * Takes the lock or says who holds it; returns the release. A dead holder's lock is taken over. A
 * tree another process keeps (`serve --out`, see keepTree) is refused: its next refresh would
 * undo what this writer wrote.
 */
export function takeLock(layout: TreeLayout): () => void {
  makeStore(layout);
  const file = join(layout.store, LOCK_FILE);
  let release: () => void;
  try {
    release = lockIn(layout, file);
  } catch (cause) {
    // A full disk, permissions. A failed write names no file (its open did): said here.
    const error = cause as NodeJS.ErrnoException;
    if (error && typeof error === "object" && !error.path) error.path = file;
    const left = currentRelease(layout) === null ? NOTHING_CHANGED : TREE_UNCHANGED;
    throw treeWriteError(cause, layout.published, left);
  }
  // Under the lock: a server marks its tree before its first write of it, which takes this lock,
  // so a writer either finishes before that write or sees the mark here.
  try {
    refuseIfKept(layout);
    markAgainIfGone(layout);
  } catch (refusal) {
    release();
    throw refusal;
  }
  return release;
}

/**
 * Marks the tree as kept by this process (`serve --out`) until the returned function is called:
 * other processes' builds and refreshes of it are refused meanwhile. A dead keeper's mark is
 * taken over.
 */
export function keepTree(layout: TreeLayout): () => void {
  const path = keeperPath(layout);
  return holdFile(path, keptHere, isServing, (owner) => {
    throw new UserError(
      `${layout.published} is kept by another velodata serve (${ownerText(owner)})`,
      [
        `give this server another --out, or stop that one first; if none is running, remove ${path}`,
      ],
    );
  });
}

/** A tree this process keeps may be written by it (its server's refreshes); another's may not. */
export function refuseIfKept(layout: TreeLayout): void {
  const path = keeperPath(layout);
  if (keptHere.has(path)) return;
  let owner: LockOwner;
  try {
    owner = lockOwner(path);
  } catch {
    return; // unreadable (a file where the store's folder goes): the writer's own lock says why
  }
  if (isStale(owner, isServing) || ("pid" in owner && owner.pid === process.pid)) return;
  throw new UserError(
    `${layout.published} is kept by velodata serve (${ownerText(owner)}), which writes it at every refresh`,
    [
      `stop that server to build or refresh this tree yourself, or give another --out; if none is running, remove ${path}`,
    ],
  );
}

const keeperPath = (layout: TreeLayout): string => join(layout.store, "kept-by-serve");

/**
 * Removes the marks naming this process (the writers' lock, the keeper's mark) from the tree's
 * store: for a server whose thread was ended during its start, before it could let them go. Left,
 * a pid a reboot gives to another program would keep the tree from every build until removed by
 * hand. Another process's marks stay.
 */
export function dropOwnMarks(layout: TreeLayout): void {
  for (const path of [join(layout.store, LOCK_FILE), keeperPath(layout)]) {
    try {
      const owner = lockOwner(path);
      if ("pid" in owner && owner.pid === process.pid) rmSync(path, { force: true });
    } catch {} // as after a kill: the next writer finds it stale, or the refusal names it
  }
}

/**
 * The mark of a tree this process keeps, made again by each of its writes when gone: a store
 * deleted by hand while the server runs is made anew by its next refresh, and without the mark a
 * build of the tree would no longer be refused.
 */
function markAgainIfGone(layout: TreeLayout): void {
  const path = keeperPath(layout);
  if (keptHere.has(path) && "none" in lockOwner(path)) createLock(path);
}

function lockIn(layout: TreeLayout, path: string): () => void {
  return holdFile(path, heldHere, isRunning, (owner) => {
    throw new UserError(
      `${layout.published} is being written by another velodata process (${ownerText(owner)})`,
      [`wait for it to finish; if no velodata is running, remove ${path}`],
    );
  });
}

/**
 * Holds the lock file `path` (listed in `here` while this process does) and returns its release;
 * `refuse` throws when another holds it. A dead holder's file is taken over, and so is one naming
 * our own pid that `here` does not list: a reused pid (containers restart with the same ones).
 */
function holdFile(
  path: string,
  here: Set<string>,
  running: (pid: number, ageMs: number) => boolean,
  refuse: (owner: LockOwner) => never,
): () => void {
  const held = () => {
    here.add(path);
    return () => {
      here.delete(path);
      rmSync(path, { force: true });
    };
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (!here.has(path) && createLock(path)) return held();
    const owner = lockOwner(path);
    const ours = "pid" in owner && owner.pid === process.pid && !here.has(path);
    if (here.has(path) || !(ours || isStale(owner, running))) refuse(owner);
    if (takeOver(path, owner)) return held();
  }
  throw new UserError(`cannot take ${path}`, ["remove it if no velodata process is running"]);
}

const ownerText = (owner: LockOwner): string =>
  "pid" in owner ? `pid ${owner.pid}` : "its lock names no pid";
