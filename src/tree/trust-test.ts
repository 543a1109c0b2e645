// The updater's trust test of the files a refresh leaves as they are: each still has the
// manifest's size and was not changed after the manifest was sealed (one lstat per file, or a
// `find` of what changed after the seal).
import { existsSync, lstatSync } from "node:fs";
import { fileOf } from "../routes/file-of.js";
import { workerAnswer } from "../worker-answer.js";
import { changedEntries, changedSince, inFolders } from "./changed-since-seal.js";
import { type Manifest, type ManifestEntry, manifestSizes } from "./manifest.js";
import type { Tree } from "./read-tree.js";
import { SIBLING_SUFFIXES, siblingSizes } from "./siblings.js";

/** The file at `onDisk` and its siblings, if the manifest promises any, pass the test. */
export function trustedOnDisk(onDisk: string, known: ManifestEntry, sealedAt: number): boolean {
  const sizes = [known.size, ...siblingSizes(known)];
  const names = known.variants
    ? [onDisk, ...SIBLING_SUFFIXES.map((suffix) => `${onDisk}${suffix}`)]
    : [onDisk];
  return names.every((name, index) => {
    const stats = lstatSync(name, { throwIfNoEntry: false });
    return stats?.isFile() === true && stats.size === sizes[index] && stats.ctimeMs <= sealedAt;
  });
}

/**
 * The URL paths of the manifest whose files (or siblings) fail the test. Straight from its
 * columns: ~200,000 files at 100,000 stations, the lstat calls themselves are most of the time.
 */
export function untrustedPaths(root: string, manifest: Manifest, sealedAt: number): string[] {
  const trusted = trustedAt(root, manifest, sealedAt);
  const failed: string[] = [];
  manifest.paths.forEach((path, at) => {
    if (!trusted(fileOf(path), at)) failed.push(path);
  });
  return failed;
}

/**
 * The same answer from what `find` saw change after the seal (`changedSince`): a file listed, or
 * one of its siblings, fails; the files under a folder listed (one was added, removed or renamed
 * there) are tested one by one; every other file is trusted without an lstat of its own.
 */
export function untrustedAmong(
  root: string,
  manifest: Manifest,
  sealedAt: number,
  changed: readonly string[],
): string[] {
  if (changed.length === 0) return [];
  const { files, folders } = changedEntries(root, changed);
  const trusted = trustedAt(root, manifest, sealedAt);
  const sizes = manifestSizes(manifest);
  const failed: string[] = [];
  manifest.paths.forEach((path, at) => {
    const file = fileOf(path);
    const listed =
      files.has(file) ||
      (hasSiblings(sizes, at) && SIBLING_SUFFIXES.some((suffix) => files.has(`${file}${suffix}`)));
    if (listed || (inFolders(file, folders) && !trusted(file, at))) failed.push(path);
  });
  return failed;
}

/** The test of the manifest's file at `at` (and its siblings), at `file` under `root`. */
function trustedAt(
  root: string,
  manifest: Manifest,
  sealedAt: number,
): (file: string, at: number) => boolean {
  const columns = manifestSizes(manifest);
  const { sizes, gzip, br } = columns;
  const prefix = root.endsWith("/") ? root : `${root}/`;
  return (file, at) => {
    const onDisk = prefix + file;
    return (
      trustedFile(onDisk, sizes[at] as number, sealedAt) &&
      (!hasSiblings(columns, at) ||
        (trustedFile(`${onDisk}.gz`, gzip[at] as number, sealedAt) &&
          trustedFile(`${onDisk}.br`, br[at] as number, sealedAt)))
    );
  };
}

/** Whether the manifest promises `.gz`/`.br` siblings for the file at `at` (sizes of -1: none). */
function hasSiblings(columns: ReturnType<typeof manifestSizes>, at: number): boolean {
  return (columns.gzip[at] as number) >= 0 && (columns.br[at] as number) >= 0;
}

function trustedFile(name: string, size: number, sealedAt: number): boolean {
  const stats = lstatSync(name, { throwIfNoEntry: false });
  return stats?.isFile() === true && stats.size === size && stats.ctimeMs <= sealedAt;
}

/** What the worker is asked: the tree's manifest file and the seal the caller read. */
export interface TrustRequest {
  manifest: string;
  root: string;
  sealedAt: number;
}

// Compiled beside this module; absent when running from the TypeScript sources (tests).
const WORKER = new URL("./trust-worker.js", import.meta.url);

/**
 * `untrustedPaths` of the whole tree, run beside the caller's own work: by `find` (see
 * changed-since-seal.ts), else in a worker thread (it reads the manifest itself) whose ~200,000
 * lstat calls at 100,000 stations overlap the refresh's work on the main thread. Null when the
 * manifest found is not the one sealed at `tree.sealedAt`. `find` names the command (tests).
 */
export async function untrustedFiles(tree: Tree, find = "find"): Promise<string[] | null> {
  const manifest = tree.manifest;
  if (!manifest) return null;
  const root = tree.release.tree;
  const changed = await changedSince(root, tree.release.manifest, find);
  if (changed !== null) {
    // Compared with the manifest on disk when find started: it must be the caller's still.
    const seal = lstatSync(tree.release.manifest, { throwIfNoEntry: false });
    if (seal?.ctimeMs !== tree.sealedAt) return null;
    return untrustedAmong(root, manifest, tree.sealedAt, changed);
  }
  const request: TrustRequest = { manifest: tree.release.manifest, root, sealedAt: tree.sealedAt };
  if (!existsSync(WORKER)) return untrustedPaths(root, manifest, request.sealedAt);
  return workerAnswer<string[] | null>(WORKER, "the trust test's worker", { workerData: request });
}
