// The updater's trust test of the files a refresh leaves as they are: each still has the
// manifest's size and was not changed after the manifest was sealed (one lstat per file).
import { existsSync, lstatSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { fileOf } from "../routes/file-of.js";
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
  const failed: string[] = [];
  const { sizes, gzip, br } = manifestSizes(manifest);
  const prefix = root.endsWith("/") ? root : `${root}/`;
  manifest.paths.forEach((path, at) => {
    const onDisk = prefix + fileOf(path);
    const trusted =
      trustedFile(onDisk, sizes[at] as number, sealedAt) &&
      ((gzip[at] as number) < 0 ||
        (br[at] as number) < 0 ||
        (trustedFile(`${onDisk}.gz`, gzip[at] as number, sealedAt) &&
          trustedFile(`${onDisk}.br`, br[at] as number, sealedAt)));
    if (!trusted) failed.push(path);
  });
  return failed;
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
 * `untrustedPaths` of the whole tree, run in a worker thread (it reads the manifest itself) so that
 * its ~200,000 lstat calls at 100,000 stations overlap the refresh's own work on the main thread.
 * Null when the worker found another manifest than the one sealed at `tree.sealedAt`.
 */
export function untrustedFiles(tree: Tree): Promise<string[] | null> {
  const manifest = tree.manifest;
  if (!manifest) return Promise.resolve(null);
  const request: TrustRequest = {
    manifest: tree.release.manifest,
    root: tree.release.tree,
    sealedAt: tree.sealedAt,
  };
  if (!existsSync(WORKER))
    return Promise.resolve(untrustedPaths(request.root, manifest, request.sealedAt));
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData: request });
    worker.once("message", (failed: string[] | null) => resolve(failed));
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (code !== 0) reject(new Error(`the trust test's worker exited with code ${code}`));
    });
  });
}
