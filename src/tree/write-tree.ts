// Puts a Release on disk as a tree, atomically: written beside the old tree, then swapped in by rename.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { UserError } from "../errors.js";
import type { Release } from "../publish/release.js";
import { fileOf } from "../routes/routes.js";
import { inBatches } from "./in-batches.js";

/** Marks a tree as ours, so that a build never replaces a folder it did not write. */
export const MARKER = ".velodata-release.json";

export interface TreeStats {
  files: number;
  bytes: number;
}

export type Progress = (done: number, total: number) => void;

/** The marker's content: which release the tree holds, and each file's ETag, so a refresh knows what changed. */
export interface Manifest {
  release: string;
  files: Record<string, string>;
}

export function manifestOf(release: Release): Manifest {
  const files: Record<string, string> = {};
  for (const path of [...release.files.keys()].sort())
    files[path] = (release.files.get(path) as { etag: string }).etag;
  return { release: release.id, files };
}

export async function writeTree(
  release: Release,
  outDir: string,
  onProgress?: Progress,
): Promise<TreeStats> {
  const target = resolve(outDir);
  const parent = dirname(target);
  const name = basename(target);
  await mkdir(parent, { recursive: true });
  await recoverInterruptedSwap(parent, name);
  await assertReplaceable(target);

  const staging = await mkdtemp(join(parent, `.${name}.staging-${process.pid}-`));
  try {
    // mkdtemp makes a private folder; a static host running as another user must be able to read the tree.
    await chmod(staging, 0o755);
    const stats = await writeFiles(release, staging, onProgress);
    await writeFile(join(staging, MARKER), JSON.stringify(manifestOf(release)));
    await swapIn(staging, target, parent, name);
    return stats;
  } catch (cause) {
    await rm(staging, { recursive: true, force: true });
    throw cause;
  }
}

async function writeFiles(
  release: Release,
  root: string,
  onProgress?: Progress,
): Promise<TreeStats> {
  const entries = [...release.files];
  const folders = new Set<string>();
  let done = 0;
  let bytes = 0;
  await inBatches(entries, ([path, file]) => {
    const destination = join(root, fileOf(path));
    const folder = dirname(destination);
    if (!folders.has(folder)) {
      mkdirSync(folder, { recursive: true });
      folders.add(folder);
    }
    writeFileSync(destination, bodyToWrite(file.body));
    bytes += file.size;
    onProgress?.(++done, entries.length);
  });
  return { files: entries.length, bytes };
}

/** Most files are one chunk: handing writeFile the buffer itself spares it the iterable path. */
export const bodyToWrite = (body: readonly Uint8Array[]): Uint8Array =>
  body.length === 1 ? (body[0] as Uint8Array) : Buffer.concat(body);

/** Two renames: the old tree steps aside, the new one takes its name; then the old one goes. */
async function swapIn(
  staging: string,
  target: string,
  parent: string,
  name: string,
): Promise<void> {
  if (!existsSync(target)) {
    await rename(staging, target);
    return;
  }
  const old = join(parent, `.${name}.old-${process.pid}-${Date.now()}`);
  await rename(target, old);
  await rename(staging, target);
  await rm(old, { recursive: true, force: true });
}

async function assertReplaceable(target: string): Promise<void> {
  if (!existsSync(target)) return;
  const entries = await readdir(target);
  if (entries.length === 0 || entries.includes(MARKER)) return;
  throw new UserError(
    `refusing to replace ${target}: it is not empty and was not written by velodata (no ${MARKER})`,
    ["choose another --out, or empty that folder first"],
  );
}

/**
 * A build killed between its two renames leaves no tree and an `.old` one beside it: put that back.
 * Staging and old folders of processes that no longer run are debris: remove them.
 */
async function recoverInterruptedSwap(parent: string, name: string): Promise<void> {
  const target = join(parent, name);
  const staging = `.${name}.staging-`;
  const old = `.${name}.old-`;
  for (const entry of await readdir(parent)) {
    const prefix = [staging, old].find((candidate) => entry.startsWith(candidate));
    if (!prefix) continue;
    const pid = Number(entry.slice(prefix.length).split("-")[0]);
    if (pid !== process.pid && isRunning(pid)) continue;
    const path = join(parent, entry);
    if (prefix === old && !existsSync(target) && (await isTree(path))) {
      await rename(path, target);
    } else {
      await rm(path, { recursive: true, force: true });
    }
  }
}

async function isTree(path: string): Promise<boolean> {
  try {
    await readFile(join(path, MARKER));
    return true;
  } catch {
    return false;
  }
}

function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (cause) {
    return (cause as NodeJS.ErrnoException).code === "EPERM";
  }
}
