// The keys file read and parsed, its problems said in one line each and without quoting its
// text: a key pasted into it by mistake must reach no terminal and no log.
import { readFile } from "node:fs/promises";
import type { z } from "zod";
import { escapeControls, excerpt, toUserError, UserError } from "../../errors.js";
import { jsonSyntaxError } from "../../source/json-syntax-error.js";
import { issueMessage } from "../../source/parse-records.js";

/** The parsed document, or undefined when there is no file (a link to nothing is none either). */
export async function readKeysDocument(path: string): Promise<unknown> {
  const text = await readKeysText(path);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch (cause) {
    const { line, column, fault } = jsonSyntaxError(text, cause, { quotesText: false });
    const where = line === undefined ? "" : ` at line ${line}${column ? `, column ${column}` : ""}`;
    // A CSV header or V8's words may still hold a run of hex: a key is never said.
    const said = escapeControls(fault.replace(KEY_RUN, "<not shown: looks like a key>"));
    throw new UserError(
      `keys file ${path} cannot be read: it is not valid JSON${where}: ${said}: check that it is the keys file, then fix it or restore it from a backup`,
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
  // zod says only that the pattern failed: the form is what someone editing the file needs.
  if (issue.path.at(-1) === "id" && issue.code === "invalid_format" && typeof value === "string")
    return `must be 8 hex digits in lower case, as velodata keys add makes an id (e.g. 0a1b2c3d), got ${JSON.stringify(excerpt(value)).replace(KEY_RUN, "<not shown: looks like a key>")}`;
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
