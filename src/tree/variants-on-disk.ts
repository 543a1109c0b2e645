// The compressed siblings a tree already holds, read back as variants so that a refresh compresses only what changed.
import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { worthCompressing } from "../publish/compress.js";
import { type Release, type ReleaseFile, withVariants } from "../publish/release.js";
import { fileOf } from "../routes/routes.js";
import type { Tree } from "./read-tree.js";

/**
 * The files of `release` that `tree` already holds with trusted siblings (same ETag in
 * the manifest, sizes as promised, not changed since it was sealed), carrying those siblings as
 * variants: a `previous` release for `compressRelease`. Empty when the tree cannot be trusted.
 */
export function variantsOnDisk(release: Release, tree: Tree): Release {
  const files = new Map<string, ReleaseFile>();
  const { manifest } = tree;
  if (!manifest) return { ...release, files };
  for (const [path, file] of release.files) {
    if (!worthCompressing(file)) continue;
    const known = manifest.entry(path);
    if (!known?.variants || known.etag !== file.etag) continue;
    const onDisk = join(tree.release.tree, fileOf(path));
    const gzip = readTrusted(`${onDisk}.gz`, known.variants.gzip.size, tree.sealedAt);
    const br = readTrusted(`${onDisk}.br`, known.variants.br.size, tree.sealedAt);
    if (gzip && br) files.set(path, withVariants(file, { gzip, br }));
  }
  return { ...release, files };
}

function readTrusted(path: string, size: number, sealedAt: number): Buffer | null {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (!stats?.isFile() || stats.size !== size || stats.ctimeMs > sealedAt) return null;
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}
