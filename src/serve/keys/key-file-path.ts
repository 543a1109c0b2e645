// Where the keys file really lives: a keys file reached through a symbolic link is changed where
// it is, so the server that reads it (maybe by another path) sees the change.
import { existsSync, statSync } from "node:fs";
import { lstat, readlink } from "node:fs/promises";
import { dirname, isAbsolute } from "node:path";
import { UserError } from "../../errors.js";
import { symlinkLoop } from "./key-file-text.js";

// As many links as Linux follows before it says ELOOP.
const MAX_LINKS = 40;

/**
 * The path at the end of the links from `path` (`path` itself when it is no link), for the kernel
 * the same file as `path`: a relative target is appended to the link's folder as written, never
 * normalised (`..` after a linked folder is the folder's parent on disk, not in the text). Only the
 * last part matters: a rename through a linked folder lands in the real one.
 */
export async function realKeysPath(path: string): Promise<string> {
  let current = path;
  for (let links = 0; ; links++) {
    let isLink: boolean;
    try {
      isLink = (await lstat(current)).isSymbolicLink();
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === "ELOOP") throw symlinkLoop(path, cause);
      return current; // nothing there yet (the file to create), or an error the write will say
    }
    if (!isLink) return current;
    if (links >= MAX_LINKS) throw symlinkLoop(path, undefined);
    const target = await readlink(current);
    current = isAbsolute(target) ? target : `${dirname(current)}/${target}`;
  }
}

/** A new keys file goes in an existing folder: a typo in the folder must not read as "no keys". */
export function checkFolder(path: string): void {
  const folder = dirname(path);
  if (!existsSync(folder))
    throw new UserError(
      `the folder of the keys file ${path} does not exist: create ${folder} first`,
    );
  if (!statSync(folder).isDirectory())
    throw new UserError(`${folder} is a file, not a folder: the keys file ${path} cannot go there`);
}
