// Removes a folder and all it holds with one unlink per file: Node 20's rmSync stats every entry
// first and tries each file as a folder, three times the system calls over a million files.
import { type Dirent, readdirSync, rmdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";

export function removeTree(path: string): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return;
    if (code !== "ENOTDIR") throw error;
    unlinkSync(path);
    return;
  }
  for (const entry of entries) {
    const child = join(path, entry.name);
    // A file system that does not say an entry's type gets it tried as a file, then as a folder.
    if (entry.isDirectory()) removeTree(child);
    else removeFile(child);
  }
  try {
    rmdirSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EISDIR" || code === "EPERM") removeTree(path);
    else if (code !== "ENOENT") throw error;
  }
}
