// Brings a tree on disk up to a new Release file by file: only changed files are written, each replaced whole.
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { UserError } from "../errors.js";
import type { Release } from "./release.js";
import { fileOf } from "./routes.js";
import { MARKER, type Manifest, manifestOf, type TreeStats } from "./write-tree.js";

/**
 * Each changed file is written beside its final name and renamed over it, so a static host or a
 * sync to a CDN reads either the old bytes or the new ones, never a torn file. What changed is
 * known from the tree's manifest (path → ETag), so this works from cron with no memory of the
 * last run.
 */
export async function updateTree(release: Release, outDir: string): Promise<TreeStats> {
  const previous = await readManifest(outDir);
  let files = 0;
  let bytes = 0;
  for (const [path, file] of release.files) {
    if (previous.files[path] === file.etag) continue;
    await replaceFile(join(outDir, fileOf(path)), file.body);
    files++;
    bytes += file.size;
  }
  for (const path of Object.keys(previous.files)) {
    if (!release.files.has(path)) await rm(join(outDir, fileOf(path)), { force: true });
  }
  // Last: the manifest only ever describes files that are already in place.
  await replaceFile(join(outDir, MARKER), [Buffer.from(JSON.stringify(manifestOf(release)))]);
  return { files, bytes };
}

async function replaceFile(destination: string, body: readonly Uint8Array[]): Promise<void> {
  await mkdir(dirname(destination), { recursive: true });
  const temporary = `${destination}.tmp-${process.pid}`;
  try {
    await writeFile(temporary, body);
    await rename(temporary, destination);
  } catch (cause) {
    await rm(temporary, { force: true });
    throw cause;
  }
}

async function readManifest(outDir: string): Promise<Manifest> {
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
