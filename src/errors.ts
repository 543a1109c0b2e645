// The two kinds of failure the CLI knows: a user's mistake (printed plainly, exit 1) and our bug,
// the one mapping from system errors (a busy port, a full disk) to what the user can do about them,
// and the short, escaped form in which values from files and requests may appear in messages.

import { statfsSync } from "node:fs";
import { dirname } from "node:path";

/** A problem the user can fix: bad input, a missing file, a wrong option. Printed without a stack. */
export class UserError extends Error {
  override name = "UserError";
  constructor(
    message: string,
    /** Extra lines printed under the message (one per problem found). */
    readonly details: readonly string[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * `error` with `consequence` added to its headline ("…; its change is not published"). A headline
 * ending in a colon is said by the lines under it ("missing source files:" and one file a line):
 * they join it, or the headline would read "files:; its change…", naming nothing where it is shown
 * alone (/status, a log's one line).
 */
export function withConsequence(error: UserError, consequence: string): UserError {
  const listed = error.message.endsWith(":") && error.details.length > 0;
  const headline = listed ? `${error.message} ${error.details.join(", ")}` : error.message;
  return new UserError(`${headline}; ${consequence}`, listed ? [] : error.details, {
    cause: error.cause ?? error,
  });
}

/** For a folder given where a file is expected: Node's EISDIR names no path. */
export const folderWhereFileExpected = (where: string): string =>
  `${where} is a folder where a file is expected: give the path of a file`;

interface SystemError extends Error {
  code?: string;
  path?: string;
  dest?: string;
  syscall?: string;
  port?: number;
  address?: string;
  hostname?: string;
}

/** What the operator can do about each system condition, given the file or address involved. */
const FIXES: Record<string, (where: string, error: SystemError) => string> = {
  EADDRINUSE: (where) => `${where} is in use: pass --port or set PORT to a free port`,
  EADDRNOTAVAIL: (where) =>
    `cannot listen on ${where}: that address is not one of this machine's; pass --host`,
  ENOTFOUND: (where) => `cannot listen on ${where}: the host name is unknown; pass --host`,
  EACCES: (where, error) =>
    error.syscall === "listen"
      ? `${where} needs more privileges: pass --port with a port above 1023`
      : `permission denied on ${where}: check its owner and mode`,
  EPERM: (where) => `operation not permitted on ${where}: check its owner and mode`,
  ENOSPC: (where, error) =>
    outOfInodes(error)
      ? `no free inodes left on the device of ${where}: it holds as many files as it can, though df -h may show space free; remove some files (df -i shows the inodes left) and run it again`
      : `no space left on the device of ${where}: free some space and run it again`,
  EDQUOT: (where) => `disk quota exceeded for ${where}: free some space and run it again`,
  EROFS: (where) => `${where} is on a read-only file system: choose another place`,
  EISDIR: (where) => folderWhereFileExpected(where),
  ENOTDIR: (where) =>
    `${where} goes through a file where a folder is expected: check each part of the path`,
  EEXIST: (where) => `${where} already exists and is in the way: move it or choose another path`,
  ENOENT: (where) => `${where} does not exist: check the path (its folder must exist)`,
  EMFILE: (where) => `too many open files at ${where}: raise the limit (ulimit -n)`,
  ENFILE: (where) => `too many open files at ${where}: raise the limit (ulimit -n)`,
  EIO: (where) => `input/output error on ${where}: check the disk`,
  ENAMETOOLONG: (where) =>
    `the path ${excerpt(where)} is too long for the file system: choose a shorter one`,
  ELOOP: (where) => `${where} is a symbolic link that leads back to itself: fix the link`,
  // A folder velodata removes, in which files appeared meanwhile: another writer of the tree.
  ENOTEMPTY: (where) =>
    `${where} got new files while it was being removed: is another velodata writing this tree (from another container)? run one writer at a time`,
};

/**
 * A full disk met making a file may be out of inodes (files and folders), not bytes: `df -h` then
 * shows space free and "free some space" sends the operator looking for the wrong thing. Told by
 * the failed path's folder having no inode free; false when that cannot be read.
 */
function outOfInodes(error: SystemError): boolean {
  if (!error.path) return false;
  try {
    const { files, ffree } = statfsSync(dirname(error.path));
    return files > 0 && ffree === 0;
  } catch {
    return false;
  }
}

function placeOf(error: SystemError): string {
  if (error.syscall === "listen" || error.syscall === "bind") {
    if (error.code === "EADDRINUSE") return `port ${error.port}`;
    return `${error.address ?? "the host"}${error.port ? ` port ${error.port}` : ""}`;
  }
  if (error.syscall === "getaddrinfo") return error.hostname ?? "the host";
  return error.path ?? error.dest ?? "a file";
}

/**
 * Turns what the system or the runtime reports into a UserError saying what to do, keeping the
 * original as `cause`; anything it does not recognise is returned as it is (a real bug).
 */
export function toUserError(cause: unknown): unknown {
  if (cause instanceof UserError) return cause;
  if (!(cause instanceof Error)) return cause;
  const error = cause as SystemError;
  const fix = error.code ? FIXES[error.code] : undefined;
  if (fix) return new UserError(fix(placeOf(error), error), [], { cause });
  // V8's own limits, reached by input and not by our code.
  if (cause instanceof RangeError && /Invalid string length/.test(cause.message))
    return new UserError(
      "a file is larger than this program can hold as one text (about 512 MB): split it",
      [],
      { cause },
    );
  if (cause instanceof RangeError && /call stack size/.test(cause.message))
    return new UserError(
      "the input is nested too deeply to be read (thousands of levels): flatten it",
      [],
      { cause },
    );
  if (error.code === "ERR_FS_FILE_TOO_LARGE" || error.code === "ERR_STRING_TOO_LONG")
    return new UserError(
      `${error.path ?? "a file"} is larger than this program can hold as one text (about 512 MB): split it`,
      [],
      { cause },
    );
  return cause;
}

/**
 * A write the file system refused (read-only, a folder this user may not write in, a full disk or
 * quota), said of `place`, the path the user gave, when what failed was a file velodata makes to
 * change it (a temporary file or lock beside it, a folder on the way): `keys.json.lock.1234.x3f` is
 * ours, not theirs, and a failed `write` names no file at all. Anything else passes as it is.
 */
export function refusedWrite(cause: unknown, place: string): unknown {
  const error = cause as SystemError | null;
  const code = error?.code;
  if (code === "EACCES" || code === "EPERM")
    return new UserError(
      `${place} is not writable by this user: check the owner and mode of its folder`,
      [],
      { cause },
    );
  if (code === "EROFS" || code === "ENOSPC" || code === "EDQUOT")
    return new UserError(FIXES[code]?.(place, error as SystemError) as string, [], { cause });
  return cause;
}

/** At most `max` characters of a value for a message: a 200 MB bad value must not print 200 MB. */
export function excerpt(value: string, max = 60): string {
  return value.length <= max ? value : `${value.slice(0, max)}… (${value.length} characters)`;
}

// C0, DEL and C1 controls, plus the line and paragraph separators some log viewers break on.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it escapes
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** `\x1b[2J` in a path must reach the log as the text `\x1b`, never as a terminal command. */
export function escapeControls(text: string): string {
  return text.replace(UNPRINTABLE, (character) => {
    const code = character.charCodeAt(0);
    return code > 0xff
      ? `\\u${code.toString(16).padStart(4, "0")}`
      : `\\x${code.toString(16).padStart(2, "0")}`;
  });
}
