// System errors met while writing a tree, said as what happened, where, and what to do.
import { UserError } from "../errors.js";

const REASONS: Record<string, [string, string]> = {
  ENOSPC: ["no space left on the device", "free some space"],
  EDQUOT: ["the disk quota is exhausted", "free some space or raise the quota"],
  EACCES: ["permission denied", "give this user write access to that folder"],
  EPERM: ["operation not permitted", "give this user write access to that folder"],
  EROFS: ["the file system is read-only", "choose an --out on a writable file system"],
  ENOTDIR: ["a file stands where a folder is needed", "choose another --out"],
  EISDIR: ["a folder stands where a file is needed", "choose another --out"],
  EIO: ["an input/output error of the device", "check the disk"],
  EMFILE: ["too many open files", "raise the open files limit (ulimit -n)"],
  ENOENT: ["a folder on the way is missing or cannot be made there", "choose another --out"],
  EXDEV: ["the tree and its store are on different file systems", "choose another --out"],
  ENAMETOOLONG: ["a path is too long for the file system", "choose a shorter --out"],
  // A build moves --out aside to put its link there: a mount point (a Docker volume) cannot move.
  EBUSY: [
    "--out is busy, a mount point most likely, which cannot be moved to put the tree's link there",
    "give a path inside it, e.g. /out/tree",
  ],
};

// A full disk met making a file or folder may be out of inodes, not bytes: `df -h` then shows space
// free (a tree is many small files). What failed is gone by the time this is said (the half-written
// release removed), so both are named.
const NO_NEW_FILE: [string, string] = [
  "no space left on the device for a new file: its free inodes or blocks ran out",
  "free some space or remove some files (df -i shows the inodes left)",
];
const MAKING = new Set(["open", "mkdir", "link", "symlink", "rename"]);

/** Wraps a system error of a tree write; anything else (a bug) passes through unchanged. */
export function treeWriteError(cause: unknown, out: string, state: string): unknown {
  const error = cause as NodeJS.ErrnoException;
  if (cause instanceof UserError || typeof error?.code !== "string") return cause;
  const [reason, fix] =
    error.code === "ENOSPC" && MAKING.has(error.syscall ?? "")
      ? NO_NEW_FILE
      : (REASONS[error.code] ?? [error.message, "fix the cause"]);
  const where = error.path ? ` (${error.syscall ?? "writing"} ${error.path})` : "";
  return new UserError(
    `cannot write the tree at ${out}: ${reason}${where}; ${state}`,
    [`${fix}, ${THEN_AGAIN}`],
    { cause },
  );
}

/** What a user does once the cause is fixed (a server, which tries again itself, says otherwise). */
export const THEN_AGAIN = "then run the command again";

export const TREE_UNCHANGED = "the tree served there is unchanged";
/** What a write that failed says when no tree was served there before it. */
export const NOTHING_PUBLISHED = "nothing is published there yet";
/** What a write that failed before it began says when it cannot tell whether a tree is there. */
export const NOTHING_CHANGED = "nothing there was changed";
