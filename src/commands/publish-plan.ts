// What `velodata publish --dry-run` prints: the plan, kind by kind, said plainly to have written nothing.
import type { PlannedObject, PlannedPut, PublishPreview } from "../host/object-storage/dry-run.js";
import { counted } from "../plural.js";
import { formatBytes } from "./output.js";

/** Paths shown of each kind without --verbose: enough to see what a run would touch. */
export const FIRST_SHOWN = 10;

/**
 * `keyed`: whether a key is a keyed answer's, left out of the run (no --include-keyed): a run
 * deletes those a run with it put up, and the plan says why. `keepRemoved`: the seconds an object
 * that left the release is kept (see Removal).
 */
export function describePlan(
  preview: PublishPreview,
  options: {
    to: string;
    verbose: boolean;
    keyed: (key: string) => boolean;
    keepRemoved: number;
  },
): string[] {
  const { puts, unchanged, deletions, keptForLater: kept } = preview;
  const why = (put: PlannedPut) => (put.resumed ? RESUMED : put.isNew ? "new" : "changed");
  const resumed = puts.filter((put) => put.resumed).length;
  const fresh = puts.filter((put) => !put.resumed && put.isNew).length;
  const keyed = deletions.filter(({ key }) => options.keyed(key)).length;
  return [
    `dry run: nothing was written to ${options.to}`,
    `would put ${counted(puts.length, "object")} (${fresh} new, ${puts.length - fresh - resumed} changed` +
      `${resumed > 0 ? `, ${resumed} ${RESUMED}` : ""}), ${bytesOf(puts)}`,
    ...shown(puts, options.verbose, (put) => `put ${put.key} (${why(put)})`),
    `would delete ${counted(deletions.length, "object")}${keyed > 0 ? ` (${keyed} ${KEYED})` : ""}, ${bytesOf(deletions)}`,
    ...shown(
      deletions,
      options.verbose,
      (gone) => `delete ${gone.key} (${options.keyed(gone.key) ? KEYED : "no longer in the tree"})`,
    ),
    ...(kept.length > 0
      ? [
          `would keep ${counted(kept.length, "object")} ${forLater(options.keepRemoved)}, ${bytesOf(kept)}`,
          ...shown(kept, options.verbose, (later) => {
            const due = new Date(Date.parse(later.removedAt) + options.keepRemoved * 1000);
            return `keep ${later.key} until ${due.toISOString()} (no longer in the tree since ${later.removedAt})`;
          }),
        ]
      : []),
    `would keep ${counted(unchanged.length, "object")} unchanged, ${bytesOf(unchanged)}`,
    ...shown(unchanged, options.verbose, (kept) => `keep ${kept.key}`),
    "dry run: nothing was written",
  ];
}

/** Why an object goes up again whatever the store holds (a run's summary says it too). */
export const RESUMED = "again, left pending by a publish that did not finish";
/** Why a keyed answer the tree still holds is deleted. */
export const KEYED = "keyed, --include-keyed not given";

/** Why objects that left the release are still up (kept …): a later run deletes them. */
export const forLater = (keepRemoved: number): string =>
  `for later (no longer in the tree, deleted ${keepRemoved} s after they left: --keep-removed)`;

/**
 * Said on stderr by a run with --include-keyed that puts keyed answers in a store that holds
 * none yet: once, not by every run from cron (whose stderr is mailed).
 */
export const keyedPublic = (count: number): string =>
  `warning: --include-keyed puts ${counted(count, "keyed answer")} in the store, where anyone reads them without a key: ` +
  "neither the store nor a CDN in front checks apiKey unless you make the CDN do it (see docs/object-storage.md)";

const bytesOf = (objects: readonly PlannedObject[]) =>
  formatBytes(objects.reduce((sum, object) => sum + object.bytes, 0));

function shown<T>(objects: readonly T[], verbose: boolean, line: (object: T) => string): string[] {
  const listed = verbose ? objects : objects.slice(0, FIRST_SHOWN);
  const rest = objects.length - listed.length;
  return [
    ...listed.map((object) => `  ${line(object)}`),
    ...(rest > 0 ? [`  … and ${rest} more (--verbose lists them all)`] : []),
  ];
}
