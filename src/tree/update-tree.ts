// Brings a tree on disk up to a new Release file by file: only changed files are written, each replaced whole.
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { UserError } from "../errors.js";
import type { Release } from "../publish/release.js";
import { fileOf } from "../routes/routes.js";
import { inBatches } from "./in-batches.js";
import { bodyToWrite, MARKER, type Manifest, manifestOf, type TreeStats } from "./write-tree.js";

/**
 * Each changed file is written beside its final name and renamed over it, so a static host or a
 * sync to a CDN reads either the old bytes or the new ones, never a torn file. What changed is
 * known from the tree's manifest (path → ETag), so this works from cron with no memory of the
 * last run.
 */
export async function updateTree(release: Release, outDir: string): Promise<TreeStats> {
  const previous = await readManifest(outDir);
  const changed = [...release.files].filter(([path, file]) => previous.files[path] !== file.etag);
  const folders = new Set<string>();
  await inBatches(changed, ([path, file]) =>
    replaceFile(join(outDir, fileOf(path)), file.body, folders),
  );
  const gone = Object.keys(previous.files).filter((path) => !release.files.has(path));
  await inBatches(gone, (path) => rmSync(join(outDir, fileOf(path)), { force: true }));
  // Last: the manifest only ever describes files that are already in place.
  replaceFile(join(outDir, MARKER), [Buffer.from(JSON.stringify(manifestOf(release)))], folders);
  return {
    files: changed.length,
    bytes: changed.reduce((total, [, file]) => total + file.size, 0),
  };
}

function replaceFile(destination: string, body: readonly Uint8Array[], folders: Set<string>): void {
  const folder = dirname(destination);
  if (!folders.has(folder)) {
    mkdirSync(folder, { recursive: true });
    folders.add(folder);
  }
  const temporary = `${destination}.tmp-${process.pid}`;
  try {
    writeFileSync(temporary, bodyToWrite(body));
    renameSync(temporary, destination);
  } catch (cause) {
    rmSync(temporary, { force: true });
    throw cause;
  }
}

export async function readManifest(outDir: string): Promise<Manifest> {
  const path = join(outDir, MARKER);
  if (!existsSync(path)) {
    throw new UserError(`no velodata tree at ${outDir} (no ${MARKER}): run velodata build first`);
  }
  try {
    return JSON.parse(await readFile(path, "utf8")) as Manifest;
  } catch (cause) {
    throw new UserError(
      `the tree's manifest ${path} cannot be read: ${(cause as Error).message}; run velodata build again`,
    );
  }
}
