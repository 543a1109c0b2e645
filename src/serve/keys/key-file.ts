// The keys file: only sha256 hashes of API keys, with labels and revocation dates; written atomically, mode 0600.
import { hash, randomBytes } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { chmod, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import { excerpt, UserError } from "../../errors.js";
import { issueMessage } from "../../source/parse-records.js";
import { withKeysLock } from "./key-lock.js";

export const StoredKey = z.strictObject({
  id: z.string().regex(/^[0-9a-f]{8}$/),
  label: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  created: z.iso.datetime(),
  revoked: z.iso.datetime().nullable(),
});
export type StoredKey = z.infer<typeof StoredKey>;

const KeyFile = z.strictObject({ keys: z.array(StoredKey) });

export const hashKey = (key: string): string => keyDigest(key).toString("hex");

/** hashKey's bytes, as the server compares them. */
export const keyDigest = (key: string): Buffer => hash("sha256", key, "buffer");

/** Reads the keys file; a missing file is an empty one. Throws a UserError saying what is wrong. */
export async function readKeys(path: string): Promise<StoredKey[]> {
  if (!existsSync(path)) return [];
  let document: unknown;
  try {
    document = JSON.parse(await readFile(path, "utf8"));
  } catch (cause) {
    throw new UserError(
      `keys file ${path} cannot be read: ${excerpt((cause as Error).message, 200)}`,
      [],
      {
        cause,
      },
    );
  }
  const parsed = KeyFile.safeParse(document);
  if (!parsed.success) {
    const details = parsed.error.issues.map(
      (issue) => `${path} ${issue.path.join(".")}: ${issueMessage(issue, document)}`,
    );
    throw new UserError(`keys file ${path} is not valid`, details);
  }
  return parsed.data.keys;
}

/** Written beside and renamed over, so a server polling the file never reads half of it. */
async function writeKeys(path: string, keys: readonly StoredKey[]): Promise<void> {
  const temporary = `${path}.tmp-${process.pid}`;
  await writeFile(temporary, `${JSON.stringify({ keys }, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600); // the umask may have narrowed it further; never wider
  await rename(temporary, path);
}

/** A new keys file goes in an existing folder: a typo in the folder must not read as "no keys". */
function checkFolder(path: string): void {
  const folder = dirname(path);
  if (!existsSync(folder))
    throw new UserError(
      `the folder of the keys file ${path} does not exist: create ${folder} first`,
    );
  if (!statSync(folder).isDirectory())
    throw new UserError(`${folder} is a file, not a folder: the keys file ${path} cannot go there`);
}

/** Creates a key of 40 hex characters, like the original service's; only its hash is stored. */
export async function addKey(
  path: string,
  label: string,
  now: Date,
): Promise<{ key: string; stored: StoredKey }> {
  checkFolder(path);
  return withKeysLock(path, () => addKeyLocked(path, label, now));
}

async function addKeyLocked(
  path: string,
  label: string,
  now: Date,
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
  };
  await writeKeys(path, [...keys, stored]);
  return { key, stored };
}

/** The key as stored now; `already` when it was revoked before (its first revocation stays). */
export async function revokeKey(
  path: string,
  id: string,
  now: Date,
): Promise<{ key: StoredKey; already: boolean }> {
  if (!existsSync(path)) throw new UserError(`no keys file at ${path}: check the path`);
  return withKeysLock(path, () => revokeKeyLocked(path, id, now));
}

async function revokeKeyLocked(
  path: string,
  id: string,
  now: Date,
): Promise<{ key: StoredKey; already: boolean }> {
  const keys = await readKeys(path);
  const target = keys.find((stored) => stored.id === id);
  if (!target)
    throw new UserError(`no key with id ${id} in ${path}`, ["velodata keys list shows the ids"]);
  if (target.revoked) return { key: target, already: true };
  const revoked = { ...target, revoked: now.toISOString() };
  await writeKeys(
    path,
    keys.map((stored) => (stored.id === id ? revoked : stored)),
  );
  return { key: revoked, already: false };
}
