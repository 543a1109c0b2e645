// The last states file a cron refresh or build accepted, kept in the release folder beside the tree
// (never served): the next refresh compares the new file's records with its texts.
import { isAscii } from "node:buffer";
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { crc32 } from "node:zlib";

const PREFIX = "accepted-states-";

/** Where the minute state finds the kept file, and what proves it whole. */
export interface KeptStatesFile {
  file: string;
  size: number;
  crc: number;
}

/** A states file as seen before it was read: the same after the read means the same bytes. */
export interface StatesSeen {
  path: string;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

export function statesSeen(path: string): StatesSeen | null {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (!stats?.isFile()) return null;
  const { ino, size, mtimeMs, ctimeMs } = stats;
  return { path, ino, size, mtimeMs, ctimeMs };
}

/** The states file's bytes, if it is still the file seen before it was read (any change: null). */
export function bytesIfUnchanged(seen: StatesSeen | null): Buffer | null {
  if (!seen) return null;
  try {
    const bytes = readFileSync(seen.path);
    const after = statesSeen(seen.path);
    const same =
      after !== null &&
      after.ino === seen.ino &&
      after.size === seen.size &&
      after.mtimeMs === seen.mtimeMs &&
      after.ctimeMs === seen.ctimeMs &&
      bytes.length === seen.size;
    return same ? bytes : null;
  } catch {
    return null;
  }
}

/**
 * Writes `bytes` (all ASCII: what the next refresh compares texts with) into the release folder
 * under a new name, whole (written beside and renamed); null when they are not ASCII or cannot be
 * written (only a speed-up: the next refresh then reads its states file whole).
 */
export function keepStates(releaseFolder: string, bytes: Buffer): KeptStatesFile | null {
  if (!isAscii(bytes)) return null;
  const file = `${PREFIX}${process.pid}-${Date.now().toString(36)}.json`;
  const path = join(releaseFolder, file);
  const temporary = `${path}.tmp`;
  try {
    writeFileSync(temporary, bytes);
    renameSync(temporary, path);
  } catch {
    rmSync(temporary, { force: true });
    return null;
  }
  return { file, size: bytes.length, crc: crc32(bytes) };
}

/** The kept file's text, or null when it is missing or not the bytes that were kept. */
export function readKeptStates(releaseFolder: string, kept: KeptStatesFile): string | null {
  return readKeptBytes(releaseFolder, kept)?.toString("latin1") ?? null;
}

/** The kept file's bytes, or null when it is missing or not the bytes that were kept. */
export function readKeptBytes(releaseFolder: string, kept: KeptStatesFile): Buffer | null {
  if (!kept.file?.startsWith(PREFIX) || kept.file.includes("/")) return null;
  try {
    const bytes = readFileSync(join(releaseFolder, kept.file));
    return bytes.length === kept.size && crc32(bytes) === kept.crc ? bytes : null;
  } catch {
    return null;
  }
}

/** Deletes a kept file (one this run wrote, when its state was not written after all). */
export function dropKeptStates(releaseFolder: string, file: string): void {
  if (file.startsWith(PREFIX) && !file.includes("/"))
    rmSync(join(releaseFolder, file), { force: true });
}

/** Deletes the kept files other than `current` (left by earlier runs, or a run killed meanwhile). */
export function dropOtherKeptStates(releaseFolder: string, current: string | undefined): void {
  try {
    for (const name of readdirSync(releaseFolder))
      if (name.startsWith(PREFIX) && name !== current)
        rmSync(join(releaseFolder, name), { force: true });
  } catch {
    // Only space: the next run tries again.
  }
}
