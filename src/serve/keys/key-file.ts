// The keys file: only sha256 hashes of API keys, with labels and revocation dates; written atomically, mode 0600.
import { hash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { z } from "zod";
import { UserError } from "../../errors.js";
import { typosApart } from "../../source/typos.js";
import { checkFolder, realKeysPath } from "./key-file-path.js";
import { keyIssueMessage, readKeysDocument, shownField } from "./key-file-text.js";
import { writeKeys } from "./key-file-write.js";
import { sharedIds, unknownId } from "./key-ids.js";
import { checkLabel } from "./key-label.js";
import { withKeysLock } from "./key-lock.js";
import { MOST_PER_MINUTE } from "./per-minute.js";

export const StoredKey = z.strictObject({
  id: z.string().regex(/^[0-9a-f]{8}$/),
  label: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  created: z.iso.datetime(),
  revoked: z.iso.datetime().nullable(),
  /** At most this many requests in a minute (see request-windows.ts); none when absent. */
  requestsPerMinute: z.number().int().min(1).max(MOST_PER_MINUTE).optional(),
});
export type StoredKey = z.infer<typeof StoredKey>;

const KeyFile = z.strictObject({ keys: z.array(StoredKey) });

/** A key's SHA-256 in hex: what the keys file stores, and what the server looks a key up by. */
export const hashKey = (key: string): string => hash("sha256", key, "hex");

/** Reads the keys file; a missing file is an empty one. Throws a UserError saying what is wrong. */
export async function readKeys(path: string): Promise<StoredKey[]> {
  return (await readKeysIfAny(path)) ?? [];
}

/** The keys in the file, or undefined when there is no file. */
export async function readKeysIfAny(path: string): Promise<StoredKey[] | undefined> {
  const document = await readKeysDocument(path);
  if (document === undefined) return undefined;
  const other = anotherFile(path, document);
  if (other) throw new UserError(`keys file ${path} is not valid`, [other]);
  const parsed = KeyFile.safeParse(document);
  if (!parsed.success) {
    const details = parsed.error.issues.flatMap((issue) => issueLines(path, issue, document));
    throw new UserError(`keys file ${path} is not valid`, details);
  }
  const shared = sharedIds(parsed.data.keys);
  if (shared.length > 0)
    throw new UserError(
      `keys file ${path} is not valid`,
      shared.map((detail) => `${path} ${detail}`),
    );
  return parsed.data.keys;
}

/**
 * What a document without a `keys` list is, in one line: its field meant as `keys` misspelt, or
 * another file given as --keys (a source's stations or states, say); undefined for a keys file.
 */
function anotherFile(path: string, document: unknown): string | undefined {
  const fields =
    typeof document === "object" && document !== null && !Array.isArray(document)
      ? Object.keys(document)
      : undefined;
  if (fields?.includes("keys")) return undefined;
  const misspelt = fields?.find((field) => typosApart(field.toLowerCase(), "keys") <= 1);
  if (misspelt) return `${path} ${shownField(misspelt)}: unknown field: "keys" misspelt?`;
  const holds = fields?.length
    ? ` (it holds ${fields.slice(0, 3).map(shownField).join(", ")}${fields.length > 3 ? "…" : ""}: another file?)`
    : "";
  return `${path}: is no keys file: it must hold {"keys": […]}, as velodata keys add writes it${holds}`;
}

/** What one issue says, a line per field: each unknown field named. */
function issueLines(path: string, issue: z.core.$ZodIssue, document: unknown): string[] {
  if (issue.code === "unrecognized_keys")
    return issue.keys.map(
      (field) =>
        `${path} ${[...issue.path, shownField(field)].join(".")}: unknown field (check its spelling)`,
    );
  return [`${path} ${issue.path.join(".")}: ${keyIssueMessage(issue, document)}`];
}

/** Creates a key of 40 hex characters, like the original service's; only its hash is stored. */
export async function addKey(
  path: string,
  label: string,
  now: Date,
  perMinute: number | null = null,
): Promise<{ key: string; stored: StoredKey }> {
  checkLabel(label);
  const file = await realKeysPath(path);
  checkFolder(file);
  return withKeysLock(file, () => addKeyLocked(path, file, label, now, perMinute));
}

/** Reads by the path given (messages name it), writes the file at the end of its links. */
async function addKeyLocked(
  path: string,
  file: string,
  label: string,
  now: Date,
  perMinute: number | null,
): Promise<{ key: string; stored: StoredKey }> {
  const keys = await readKeys(path);
  const key = randomBytes(20).toString("hex");
  let id = randomBytes(4).toString("hex");
  while (keys.some((stored) => stored.id === id)) id = randomBytes(4).toString("hex");
  const stored: StoredKey = {
    id,
    label,
    sha256: hashKey(key),
    created: now.toISOString(),
    revoked: null,
    ...(perMinute === null ? {} : { requestsPerMinute: perMinute }),
  };
  await writeKeys(file, [...keys, stored]);
  return { key, stored };
}

/** The key as stored now; `already` when it was revoked before (its first revocation stays). */
export async function revokeKey(
  path: string,
  id: string,
  now: Date,
): Promise<{ key: StoredKey; already: boolean }> {
  const { before, after } = await changeKey(path, id, (key) =>
    key.revoked ? key : { ...key, revoked: now.toISOString() },
  );
  return { key: after, already: before.revoked !== null };
}

/** The key as stored now, with at most `perMinute` requests a minute, or no limit (null). */
export async function limitKey(
  path: string,
  id: string,
  perMinute: number | null,
): Promise<StoredKey> {
  const { after } = await changeKey(path, id, ({ requestsPerMinute: _, ...key }) => {
    // A limit on a key no request gets through with changes nothing: said, not done in silence.
    if (key.revoked)
      throw new UserError(
        `key ${id} was revoked at ${key.revoked}: no request gets through with it, whatever its limit; nothing was changed`,
        ["to let its holder in again, give them a new key (velodata keys add)"],
      );
    return perMinute === null ? key : { ...key, requestsPerMinute: perMinute };
  });
  return after;
}

/** The key `id` before and after `change`, written under the keys' lock (not when it is the same). */
async function changeKey(
  path: string,
  id: string,
  change: (key: StoredKey) => StoredKey,
): Promise<{ before: StoredKey; after: StoredKey }> {
  const file = await realKeysPath(path);
  if (!existsSync(file)) throw new UserError(`no keys file at ${path}: check the path`);
  return withKeysLock(file, async () => {
    const keys = await readKeys(path);
    const before = keys.find((stored) => stored.id === id);
    if (!before)
      throw unknownId(path, id, (key) => keys.find((stored) => stored.sha256 === hashKey(key)));
    const after = change(before);
    if (JSON.stringify(after) !== JSON.stringify(before))
      await writeKeys(
        file,
        keys.map((stored) => (stored === before ? after : stored)),
      );
    return { before, after };
  });
}
