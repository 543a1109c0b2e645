// The manifest: which release a tree holds and each file's ETag, size and type, kept outside the served folder.
import { readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { type Release, type ReleaseFile, variantEtag } from "../publish/release.js";

/** A precompressed sibling in the tree (`FILE.gz`, `FILE.br`): its own ETag and size. */
export interface VariantEntry {
  etag: string;
  size: number;
}

export interface ManifestEntry {
  etag: string;
  size: number;
  type: string;
  /** The siblings written beside the file, when it is worth compressing. */
  variants?: { gzip: VariantEntry; br: VariantEntry };
}

/** JSON on disk, keyed by URL path (`fileOf(path)` gives the file in the tree). */
export interface Manifest {
  format: 1;
  release: string;
  generatedAt: string;
  files: Record<string, ManifestEntry>;
}

export function manifestOf(release: Release): Manifest {
  const files: Record<string, ManifestEntry> = {};
  for (const path of [...release.files.keys()].sort()) {
    const file = release.files.get(path);
    if (file) files[path] = entryOf(file);
  }
  return { format: 1, release: release.id, generatedAt: release.generatedAt.toISOString(), files };
}

function entryOf(file: ReleaseFile): ManifestEntry {
  const entry: ManifestEntry = { etag: file.etag, size: file.size, type: file.contentType };
  if (!file.variants) return entry;
  const { gzip, br } = file.variants;
  entry.variants = {
    gzip: { etag: variantEtag(file, "gzip"), size: gzip.byteLength },
    br: { etag: variantEtag(file, "br"), size: br.byteLength },
  };
  return entry;
}

/** Written beside and renamed over: a reader gets the old manifest or the new one, whole. */
export function writeManifest(path: string, manifest: Manifest): void {
  const temporary = `${path}.tmp-${process.pid}`;
  writeFileSync(temporary, JSON.stringify(manifest));
  renameSync(temporary, path);
}

/**
 * The manifest and its change time: a file in the tree changed after the manifest was sealed
 * (its ctime is later) was changed behind velodata's back. ctime cannot be set by `cp -p` or
 * `touch`, and both times come from the same file system clock.
 */
export function readManifest(path: string): { manifest: Manifest; sealedAt: number } | null {
  let text: string;
  let sealedAt: number;
  try {
    sealedAt = statSync(path).ctimeMs;
    text = readFileSync(path, "utf8");
  } catch {
    return null;
  }
  try {
    const manifest = JSON.parse(text) as Manifest;
    if (manifest.format !== 1 || typeof manifest.files !== "object") return null;
    return { manifest, sealedAt };
  } catch {
    return null;
  }
}
