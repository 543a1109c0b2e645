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

export interface Manifest {
  release: string;
  generatedAt: string;
  /** Every URL path the tree holds (`fileOf(path)` gives the file in the tree), sorted. */
  paths: readonly string[];
  /** One path's entry; undefined when the tree does not hold it. */
  entry(path: string): ManifestEntry | undefined;

  /** URL path → entry, made on first use: for readers that walk every answer. */
  readonly files: Readonly<Record<string, ManifestEntry>>;
}

/**
 * On disk, JSON in columns (one array per field, aligned with `paths`): a cron refresh reads and
 * writes it every minute, and 200,000 small objects cost far more to parse and build than a few
 * long arrays. A sibling's ETag is derived from its file's (`variantEtag`), so only sizes are kept.
 */
interface ManifestFile {
  format: typeof MANIFEST_FORMAT;
  release: string;
  generatedAt: string;
  /** The content types, each once; `type` holds an index into it. */
  types: string[];
  paths: string[];
  etags: string[];
  sizes: number[];
  type: number[];
  /** The siblings' sizes; -1 when the file has no siblings. */
  gzip: number[];
  br: number[];
}

/** Another format (an older velodata's) reads as no manifest: the tree is then verified whole. */
export const MANIFEST_FORMAT = 2;

export function manifestOf(release: Release): Manifest {
  const paths = [...release.files.keys()].sort();
  const types: string[] = [];
  const typeIndex = new Map<string, number>();
  const file: ManifestFile = {
    format: MANIFEST_FORMAT,
    release: release.id,
    generatedAt: release.generatedAt.toISOString(),
    types,
    paths,
    etags: [],
    sizes: [],
    type: [],
    gzip: [],
    br: [],
  };
  for (const path of paths) {
    const entry = release.files.get(path) as ReleaseFile;
    let type = typeIndex.get(entry.contentType);
    if (type === undefined) {
      type = types.push(entry.contentType) - 1;
      typeIndex.set(entry.contentType, type);
    }
    file.etags.push(entry.etag);
    file.sizes.push(entry.size);
    file.type.push(type);
    file.gzip.push(entry.variants ? entry.variants.gzip.byteLength : -1);
    file.br.push(entry.variants ? entry.variants.br.byteLength : -1);
  }
  return manifestFrom(file);
}

/** Written beside and renamed over: a reader gets the old manifest or the new one, whole. */
export function writeManifest(path: string, manifest: Manifest): void {
  const temporary = `${path}.tmp-${process.pid}`;
  writeFileSync(temporary, JSON.stringify(stored.get(manifest)));
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
    const file = JSON.parse(text) as ManifestFile;
    return wellFormed(file) ? { manifest: manifestFrom(file), sealedAt } : null;
  } catch {
    return null;
  }
}

function wellFormed(file: ManifestFile): boolean {
  if (file?.format !== MANIFEST_FORMAT || !Array.isArray(file.paths)) return false;
  const count = file.paths.length;
  return [file.etags, file.sizes, file.type, file.gzip, file.br].every(
    (column) => Array.isArray(column) && column.length === count,
  );
}

/** What was read or made, kept for writing it back as it is. */
const stored = new WeakMap<Manifest, ManifestFile>();

function manifestFrom(file: ManifestFile): Manifest {
  const index = new Map<string, number>();
  for (let at = 0; at < file.paths.length; at++) index.set(file.paths[at] as string, at);
  const entryAt = (at: number): ManifestEntry => {
    const etag = file.etags[at] as string;
    const entry: ManifestEntry = {
      etag,
      size: file.sizes[at] as number,
      type: file.types[file.type[at] as number] ?? "",
    };
    const gzip = file.gzip[at] as number;
    const br = file.br[at] as number;
    if (gzip < 0 || br < 0) return entry;
    // The siblings' ETags are made only when asked for: a refresh looks up 200,000 entries.
    const owner = { etag } as ReleaseFile;
    entry.variants = {
      gzip: {
        size: gzip,
        get etag() {
          return variantEtag(owner, "gzip");
        },
      },
      br: {
        size: br,
        get etag() {
          return variantEtag(owner, "br");
        },
      },
    };
    return entry;
  };
  let files: Record<string, ManifestEntry> | undefined;
  const manifest: Manifest = {
    release: file.release,
    generatedAt: file.generatedAt,
    paths: file.paths,
    entry: (path) => {
      const at = index.get(path);
      return at === undefined ? undefined : entryAt(at);
    },
    get files() {
      files ??= Object.fromEntries(file.paths.map((path, at) => [path, entryAt(at)]));
      return files;
    },
  };
  stored.set(manifest, file);
  return manifest;
}
