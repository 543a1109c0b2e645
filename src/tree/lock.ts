// One writer per tree: builds and refreshes (from cron, or a server's loop) take the store's lock.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../errors.js";
import type { TreeLayout } from "./layout.js";
import { treeWriteError } from "./tree-error.js";

const heldHere = new Set<string>();

/** Takes the lock or says who holds it; returns the release. A dead holder's lock is taken over. */
export function takeLock(layout: TreeLayout): () => void {
  makeStore(layout);
  const path = join(layout.store, "lock");
  for (let attempt = 0; attempt < 3; attempt++) {
    if (!heldHere.has(path)) {
      try {
        writeFileSync(path, String(process.pid), { flag: "wx" });
        heldHere.add(path);
        return () => {
          heldHere.delete(path);
          rmSync(path, { force: true });
        };
      } catch (cause) {
        if ((cause as NodeJS.ErrnoException).code !== "EEXIST") throw cause;
      }
    }
    const holder = readHolder(path);
    // Our own pid in a lock we do not hold is a reused pid (containers restart with the same ones).
    const busy = heldHere.has(path) || (holder !== process.pid && isRunning(holder));
    if (busy) {
      throw new UserError(
        `${layout.published} is being written by another velodata process (pid ${holder})`,
        [`wait for it to finish; if no velodata is running, remove ${path}`],
      );
    }
    // Moved aside before removal, so that of two processes taking over only one succeeds.
    try {
      renameSync(path, `${path}.stale-${process.pid}`);
      rmSync(`${path}.stale-${process.pid}`, { force: true });
    } catch {}
  }
  throw new UserError(`cannot take the lock ${path}`, ["remove it if no velodata is running"]);
}

/**
 * The store beside the published path, whose folder the caller made or found. Not a recursive
 * mkdir: where mkdir says ENOENT under a folder that exists (/proc), Node's retried forever.
 */
function makeStore(layout: TreeLayout): void {
  try {
    mkdirSync(layout.store, { mode: 0o755 });
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "EEXIST") return;
    throw treeWriteError(cause, layout.published, "nothing was written");
  }
}

function readHolder(path: string): number {
  try {
    return Number(readFileSync(path, "utf8"));
  } catch {
    return Number.NaN;
  }
}

export function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (cause) {
    return (cause as NodeJS.ErrnoException).code === "EPERM";
  }
}
