// Writes the keys file whole: beside it, then renamed over it, mode 0600, its owner kept.
import { chmod, chown, rename, rm, stat, writeFile } from "node:fs/promises";
import { refusedWrite } from "../../errors.js";
import type { StoredKey } from "./key-file.js";

/**
 * Written beside and renamed over, so a server polling the file never reads half of it. The new
 * file keeps the owner of the one it replaces: root adding a key to a file a service user owns
 * (mode 0600) must not leave it readable by root alone, which locks the server out of its keys.
 */
export async function writeKeys(path: string, keys: readonly StoredKey[]): Promise<void> {
  const temporary = `${path}.tmp-${process.pid}`;
  const replaced = await stat(path).catch(() => null);
  try {
    await writeFile(temporary, `${JSON.stringify({ keys }, null, 2)}\n`, { mode: 0o600 });
    await chmod(temporary, 0o600); // the umask may have narrowed it further; never wider
    if (replaced && process.getuid?.() === 0) await chown(temporary, replaced.uid, replaced.gid);
    await rename(temporary, path);
  } catch (cause) {
    await rm(temporary, { force: true }).catch(() => {}); // a full disk: its part written goes
    throw refusedWrite(cause, `the keys file ${path}`);
  }
}
