// One writer of the keys file at a time: `keys add` and `keys revoke` read, change and write it
// whole, so two at once would each write a file without the other's change.
import { unlink } from "node:fs/promises";
import { refusedWrite, UserError } from "../../errors.js";
import { createLock, isStale, lockOwner, takeOver } from "../../tree/lock-file.js";
import { isRunning } from "../../tree/lock-holder.js";

const RETRY_MS = 20;
const WAIT_MS = 10_000;

/**
 * Runs `change` while holding `<path>.lock` (see lock-file.ts), waiting for another keys command
 * to finish; a lock left by a process that died (kill -9) is taken over.
 */
export async function withKeysLock<T>(path: string, change: () => Promise<T>): Promise<T> {
  const lock = `${path}.lock`;
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    if (lockedHere(path, lock)) break;
    const owner = lockOwner(lock);
    if (isStale(owner, isRunning) && takeOver(lock, owner)) break;
    if (Date.now() > deadline)
      throw new UserError(
        `${path} is locked by another velodata keys command (${lock}); if none is running, delete ${lock}`,
      );
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
  try {
    return await change();
  } finally {
    await unlink(lock).catch(() => {});
  }
}

/** createLock, its failure to write said of the keys file: the lock's name is velodata's own. */
function lockedHere(path: string, lock: string): boolean {
  try {
    return createLock(lock);
  } catch (cause) {
    throw refusedWrite(cause, `the keys file ${path}`);
  }
}
