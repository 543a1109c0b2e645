// The variants of the answers a refresh changed, made in the thread pool after the swap: only
// those, so the release's index is never copied to add them (see addVariants).
import {
  ChangedVariants,
  type ChangedVariantsOptions,
  piecesPay,
} from "../publish/incremental/changed-variants.js";
import type { ListKind } from "../publish/incremental/splice-stations.js";
import type { ListLayout } from "../publish/list-layout.js";
import type { ReleaseFile } from "../publish/release.js";

/**
 * Each changed answer worth compressing, with its variants (the refresh's levels), by path. With
 * `lists` (how each list of all stations is made of its contracts' lists), a list of all stations
 * gets its variants joined of its contracts' lists compressed once, as a cron refresh makes them:
 * at a million stations, ~1 GB a minute not compressed twice; unless `options` say otherwise
 * (see ChangedVariantsOptions, piecesPayFor). `files`, the new release's: where a list of all
 * changed, the lists of its contracts that did not are found there for their pieces.
 */
export async function changedVariants(
  changed: ReadonlyMap<string, ReleaseFile>,
  files: ReadonlyMap<string, ReleaseFile>,
  lists: readonly ListLayout[] = [],
  options: ChangedVariantsOptions = {},
): Promise<Map<string, ReleaseFile>> {
  const kinds = new Map<string, ListKind>();
  for (const layout of lists) {
    kinds.set(layout.all, "all");
    for (const contract of layout.contracts) kinds.set(contract, "contract");
  }
  const variants = new ChangedVariants(options);
  // Biggest first, so that the longest job does not start last.
  for (const [path, file] of [...changed].sort(([, a], [, b]) => b.size - a.size))
    variants.add(path, file, kinds.get(path) ?? "feed");
  for (const layout of lists) {
    if (!changed.has(layout.all)) continue;
    for (const contract of layout.contracts) {
      const kept = changed.has(contract) ? undefined : files.get(contract);
      if (kept) variants.addPieces(contract, kept);
    }
  }
  return new Map(await variants.finish(lists));
}

/**
 * Whether this refresh's contracts' lists pay being made into pieces (see piecesPay): with lists of
 * all stations made of them, whose contracts' lists are big enough on average.
 */
export function piecesPayFor(
  changed: ReadonlyMap<string, ReleaseFile>,
  lists: readonly ListLayout[] = [],
): boolean {
  return lists.some((layout) =>
    piecesPay(changed.get(layout.all)?.size ?? 0, layout.contracts.length),
  );
}
