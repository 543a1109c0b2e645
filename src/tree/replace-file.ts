// A file replaced whole: written beside, then renamed over, so that a reader never sees half of it.
import { renameSync, rmSync, writeFileSync } from "node:fs";

/**
 * Writes `data` to `temporary` and renames it to `path`. On failure (a full disk) the temporary
 * file goes too: it would stay beside the file, one more at every failed run, on a full disk.
 */
export function replaceFile(path: string, temporary: string, data: string | Uint8Array): void {
  try {
    writeFileSync(temporary, data);
    renameSync(temporary, path);
  } catch (cause) {
    rmSync(temporary, { force: true });
    // A failed write names no file (the open did): said where it happened.
    const error = cause as NodeJS.ErrnoException;
    if (error && typeof error === "object" && !error.path) error.path = temporary;
    throw cause;
  }
}
