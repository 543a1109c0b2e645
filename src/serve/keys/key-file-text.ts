// The keys file read and parsed, its problems said in one line each and without quoting its
// text: a key pasted into it by mistake must reach no terminal and no log.
import { readFile } from "node:fs/promises";
import type { z } from "zod";
import { escapeControls, excerpt, toUserError, UserError } from "../../errors.js";
import { issueMessage } from "../../source/parse-records.js";

/** The parsed document, or undefined when there is no file (a link to nothing is none either). */
export async function readKeysDocument(path: string): Promise<unknown> {
  const text = await readKeysText(path);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new UserError(
      `keys file ${path} cannot be read: it is not valid JSON (${jsonReason(cause, text)}): check that it is the keys file, then fix it or restore it from a backup`,
      [],
      { cause },
    );
  }
}

async function readKeysText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "EISDIR")
      throw new UserError(
        `the keys file ${path} is a folder where a file is expected: give the path of a file`,
        [],
        { cause },
      );
    if (code === "ELOOP") throw symlinkLoop(path, cause);
    const known = toUserError(cause);
    if (known instanceof UserError) throw known;
    const reason = escapeControls(excerpt((cause as Error).message, 200));
    throw new UserError(`keys file ${path} cannot be read: ${reason}`, [], { cause });
  }
}

export const symlinkLoop = (path: string, cause: unknown): UserError =>
  new UserError(
    `the keys file ${path} is a symbolic link that leads back to itself (a loop): point it at the real keys file, or remove it`,
    [],
    { cause },
  );

/**
 * V8's reason without the text it quotes after the first `"` (it may be a key), its offset made a
 * line and column.
 */
function jsonReason(cause: unknown, text: string): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  const reason = (message.split('"')[0] ?? "")
    .replace(/,\s*$/, "")
    .replace(
      /(?: in JSON)? at position (\d+).*$/,
      (_, offset: string) => ` at ${placeOf(text, +offset)}`,
    );
  return escapeControls(excerpt(reason, 100));
}

function placeOf(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return `line ${line}, column ${offset - before.lastIndexOf("\n")}`;
}

// A raw key, as `keys add` prints it (and as the original service's were).
const RAW_KEY = /^[0-9a-fA-F]{40}$/;

/**
 * What is wrong at the issue's path, never quoting a `sha256` (it may be a key itself) nor, in any
 * field, what looks like a key (a file written as `{"keys": ["<key>"]}`).
 */
export function keyIssueMessage(issue: z.core.$ZodIssue, document: unknown): string {
  const value = issue.path.reduce<unknown>(
    (parent, key) => (parent as Record<PropertyKey, unknown> | undefined)?.[key],
    document,
  );
  if (typeof value === "string" && RAW_KEY.test(value))
    return "holds what looks like a key itself (40 hex characters, not shown): the keys file keeps only a key's SHA-256, as 64 hex digits in sha256 (printf %s KEY | sha256sum)";
  if (issue.path.at(-1) === "sha256" && value !== undefined)
    return "must be the SHA-256 of a key, as 64 lower-case hex digits (the value is not shown: it may be secret)";
  // A key pasted inside a longer value (`"created": "<key>Z"`) is hidden where the value is quoted.
  const message = issueMessage(issue, document).replace(KEY_RUN, "<not shown: looks like a key>");
  // A key revoked by hand is written `"revoked": true` as often as not: the file is then refused
  // and the server keeps its last good set, the key still valid, so say what the field takes.
  return issue.path.at(-1) === "revoked" ? `${message}; ${REVOKED_TAKES}` : message;
}

const REVOKED_TAKES =
  "revoked takes when the key was revoked, a UTC date and time such as 2025-02-08T16:44:06Z, or null while it is in use (velodata keys revoke ID writes it)";

// A run of hex long enough to be a key, or the larger part of one (dates and ids have none).
const KEY_RUN = /[0-9a-fA-F]{16,}/g;

/** A field's name as said, unless it holds what looks like a key (`{"<key>": …}`). */
export const shownField = (field: string): string =>
  field.search(KEY_RUN) >= 0 ? "<not shown: looks like a key>" : escapeControls(excerpt(field));
