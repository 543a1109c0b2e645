// How each list of all stations is made of its contracts' lists, when it is: what its variants
// can be joined of (each contract's list compressed once, see gzipOfList and brotliOfList).
import { pathOf } from "../routes/routes.js";
import type { StationSurface } from "./station-files.js";

/**
 * Per station surface, when each contract's stations are neighbours in the list of all stations:
 * that list's path and each contract's list's, in its order (`[a,b]` and `[c]` make `[a,b,c]`).
 */
export interface ListLayout {
  all: string;
  contracts: string[];
}

/**
 * The layouts of `surfaces`' lists, from each contract's stations (by the contract's own spelling
 * of its name: their positions among all stations, ascending); undefined when some contract's
 * stations are not neighbours there.
 */
export function listLayouts(
  groups: ReadonlyMap<string, readonly number[]>,
  surfaces: readonly StationSurface[],
): ListLayout[] | undefined {
  const inOrder = [...groups].sort(([, a], [, b]) => (a[0] as number) - (b[0] as number));
  const neighbours = inOrder.every(
    ([, group]) => (group.at(-1) as number) - (group[0] as number) === group.length - 1,
  );
  if (!neighbours) return undefined;
  return surfaces.map((surface) => ({
    all: pathOf(surface.all),
    contracts: inOrder.map(([contract]) => pathOf(surface.contractList(contract))),
  }));
}
