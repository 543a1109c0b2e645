// One writer of the keys file at a time: `keys add` and `keys revoke` read, change and write it
// whole, so two at once would each write a file without the other's change.
import { open, readFile, unlink } from "node:fs/promises";
import { UserError } from "../../errors.js";

const RETRY_MS = 20;
const WAIT_MS = 10_000;

/** Runs `change` while holding `<path>.lock`, created exclusively (O_EXCL) and holding our pid. */
export async function withKeysLock<T>(path: string, change: () => Promise<T>): Promise<T> {
  const lock = `${path}.lock`;
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      const handle = await open(lock, "wx", 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code !== "EEXIST") throw cause;
      if (await removedIfStale(lock)) continue;
      if (Date.now() > deadline)
        throw new UserError(
          `${path} is locked by another velodata keys command (${lock}); if none is running, delete ${lock}`,
        );
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
  try {
    return await change();
  } finally {
    await unlink(lock).catch(() => {});
  }
}

/** A lock left by a process that died (kill -9) must not block every later command. */
async function removedIfStale(lock: string): Promise<boolean> {
  const pid = Number(await lockHolder(lock));
  // An empty lock is one being written this very moment: not stale.
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code !== "ESRCH") return false;
    // Another waiter may have removed it and taken a new lock already: only unlink what we read.
    if ((await lockHolder(lock)) !== String(pid)) return false;
    await unlink(lock).catch(() => {});
    return true;
  }
}

/** The pid in the lock, as text; trimmed, as a lock written by hand (`echo PID >`) ends in a newline. */
const lockHolder = (lock: string): Promise<string> =>
  readFile(lock, "utf8").then(
    (text) => text.trim(),
    () => "",
  );
