// A lock file holding its owner's pid, made and taken over so that two processes never both hold
// it: created whole by a link (never seen empty), and a dead owner's lock replaced by one process
// at a time.
import { linkSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";

/** What a lock file says of its owner. */
export type LockOwner =
  /** `ageMs` since the lock was made. */
  | { pid: number; ageMs: number }
  /** No lock file. */
  | { none: true }
  /** Empty or not a pid: written by hand or by an older velodata; `ageMs` since it was written. */
  | { unreadable: true; ageMs: number };

// An unreadable lock older than this is nobody's: a lock is made whole, so a live writer's never is.
const UNREADABLE_STALE_MS = 10_000;
// A takeover takes microseconds: its own lock, older than this, was left by a killed process.
const TAKEOVER_STALE_MS = 10_000;

/** Creates `path` holding our pid, whole, if no one holds it; false when it is there already. */
export function createLock(path: string): boolean {
  const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  try {
    // Inside: a full disk fails the write of a file already made, which must not stay.
    writeFileSync(temporary, String(process.pid));
    linkSync(temporary, path);
    return true;
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw cause;
  } finally {
    rmSync(temporary, { force: true });
  }
}

export function lockOwner(path: string): LockOwner {
  let text: string;
  let modified: number;
  try {
    text = readFileSync(path, "utf8").trim(); // `echo PID > lock` ends in a newline
    modified = statSync(path).mtimeMs;
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "ENOENT") return { none: true };
    throw cause;
  }
  const pid = Number(text);
  return /^\d+$/.test(text) && pid > 0
    ? { pid, ageMs: Date.now() - modified }
    : { unreadable: true, ageMs: Date.now() - modified };
}

/**
 * Whether the lock's owner is gone: a dead pid, or an unreadable lock too old to be a live one.
 * `isRunning` is told the lock's age: what a pid says of its holder may depend on it.
 */
export function isStale(
  owner: LockOwner,
  isRunning: (pid: number, ageMs: number) => boolean,
): boolean {
  if ("none" in owner) return true;
  if ("unreadable" in owner) return owner.ageMs > UNREADABLE_STALE_MS;
  return !isRunning(owner.pid, owner.ageMs);
}

/**
 * Replaces the lock at `path`, found stale as `seen`, with ours; false when another process got
 * there first (it then holds the lock, or is taking it over). Takeovers go one at a time, under
 * `path.takeover`: the lock is removed only if it is still the one found stale.
 */
export function takeOver(path: string, seen: LockOwner): boolean {
  // Found gone: nothing to remove, and a lock made since by another process (which makes it outside
  // the guard) must stay. Removing "the lock still gone" between the look and the removal removed
  // that one, and both held the lock: two `keys add` each wrote the file without the other's key.
  if ("none" in seen) return createLock(path);
  const guard = `${path}.takeover`;
  if (!createLock(guard)) {
    if (!olderThan(guard, TAKEOVER_STALE_MS)) return false;
    rmSync(guard, { force: true });
    if (!createLock(guard)) return false;
  }
  try {
    if (!sameOwner(lockOwner(path), seen)) return false;
    try {
      unlinkSync(path);
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code !== "ENOENT") throw cause;
    }
    return createLock(path);
  } finally {
    rmSync(guard, { force: true });
  }
}

function sameOwner(now: LockOwner, seen: LockOwner): boolean {
  if ("pid" in now) return "pid" in seen && now.pid === seen.pid;
  return "pid" in seen ? false : "none" in now === "none" in seen;
}

function olderThan(path: string, ms: number): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > ms;
  } catch {
    return true; // gone meanwhile
  }
}
