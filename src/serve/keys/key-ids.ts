// Key ids, as commands, limits and log lines name keys: each key's own, and never a key in their place.
import { escapeControls, excerpt, UserError } from "../../errors.js";
import type { StoredKey } from "./key-file.js";

/**
 * Ids name keys in commands (`keys revoke ID`), limits and log lines: two keys of one id (files
 * merged by hand) would have one revoked and the other not, and share one limit's count. Checked
 * after parsing, as a rule: a zod refinement slows every parse of the process (see
 * docs/performance-history.md).
 */
export function sharedIds(keys: readonly StoredKey[]): string[] {
  const first = new Map<string, number>();
  return keys.flatMap(({ id }, index) => {
    const earlier = first.get(id);
    if (earlier === undefined) {
      first.set(id, index);
      return [];
    }
    return [
      `keys.${index}.id: ${id} is the id of keys.${earlier} too: each key needs an id of its own`,
    ];
  });
}

// Ids are 8 hex digits: a run of 16 or more is a key pasted in their place (or a piece of one).
const KEY_LIKE = /[0-9a-f]{16}/i;

/**
 * No key with that id. A key given for its id is never quoted (the error reaches terminals and
 * cron mails): it is said to be one, with its id when it is a stored key's.
 */
export function unknownId(
  path: string,
  id: string,
  storedAs: (key: string) => StoredKey | undefined,
): UserError {
  if (!KEY_LIKE.test(id)) {
    return new UserError(`no key with id ${escapeControls(excerpt(id))} in ${path}`, [
      "velodata keys list shows the ids",
    ]);
  }
  const owner = storedAs(id);
  return new UserError(
    `${owner ? `that is the key of id ${owner.id}` : "that looks like a key"} (not shown), not a key's id: give its id (8 hex digits) instead`,
    ["velodata keys list shows the ids"],
  );
}
