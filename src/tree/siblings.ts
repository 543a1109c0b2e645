// Precompressed siblings: `FILE.gz` and `FILE.br` beside a file worth compressing, the bytes of its variants,
// so that a web server in front of the tree (nginx gzip_static/brotli_static) sends what `serve` sends.
import type { ReleaseFile } from "../publish/release.js";
import type { ManifestEntry } from "./manifest.js";

export const SIBLING_SUFFIXES = [".gz", ".br"] as const;

/** The siblings a file has in the tree: suffix and bytes (none when it carries no variants). */
export function siblingsOf(file: Pick<ReleaseFile, "variants">): [string, Uint8Array][] {
  if (!file.variants) return [];
  return [
    [".gz", file.variants.gzip],
    [".br", file.variants.br],
  ];
}

/** The sizes the manifest promises for a file's siblings, in the order of SIBLING_SUFFIXES. */
export function siblingSizes(entry: ManifestEntry): number[] {
  return entry.variants ? [entry.variants.gzip.size, entry.variants.br.size] : [];
}
