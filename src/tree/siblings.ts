// Precompressed siblings: `FILE.gz` and `FILE.br` beside a file worth compressing, the bytes of its variants,
// so that a web server in front of the tree (nginx gzip_static/brotli_static) sends what `serve` sends.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { ReleaseFile, Variants } from "../publish/release.js";
import type { ManifestEntry } from "./manifest.js";
import { writeChunks } from "./write-chunks.js";

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

/** A file's siblings' sizes, all the manifest keeps of siblings written and let go. */
export interface SiblingSizes {
  gzip: number;
  br: number;
}

export const sizesOf = (variants: Variants): SiblingSizes => ({
  gzip: variants.gzip.byteLength,
  br: variants.br.byteLength,
});

/**
 * Where a new tree takes siblings written while it is (a build's, as their variants are made):
 * its folder, a signal to stop once the write failed (the folder is then removed), and what is
 * told of each file whose siblings were written.
 */
export interface SiblingsSink {
  root: string;
  stop: AbortSignal;
  wrote(path: string, sizes: SiblingSizes): void;
}

/** `FILE.gz` and `FILE.br` beside `file` (a path on disk), its folder made if need be. */
export function writeSiblingFiles(file: string, variants: Variants): void {
  mkdirSync(dirname(file), { recursive: true });
  for (const [suffix, bytes] of siblingsOf({ variants })) writeChunks(`${file}${suffix}`, [bytes]);
}
