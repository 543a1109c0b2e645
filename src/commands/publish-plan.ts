// What `velodata publish --dry-run` prints: the plan, kind by kind, said plainly to have written nothing.
import type { PlannedObject, PublishPreview } from "../host/object-storage/dry-run.js";
import { counted } from "../plural.js";
import { formatBytes } from "./output.js";

/** Paths shown of each kind without --verbose: enough to see what a run would touch. */
export const FIRST_SHOWN = 10;

export function describePlan(
  preview: PublishPreview,
  options: { to: string; verbose: boolean },
): string[] {
  const { puts, unchanged, deletions } = preview;
  const fresh = puts.filter((put) => put.isNew).length;
  return [
    `dry run: nothing was written to ${options.to}`,
    `would put ${counted(puts.length, "object")} (${fresh} new, ${puts.length - fresh} changed), ${bytesOf(puts)}`,
    ...shown(puts, options.verbose, (put) => `put ${put.key} (${put.isNew ? "new" : "changed"})`),
    `would delete ${counted(deletions.length, "object")}, ${bytesOf(deletions)}`,
    ...shown(deletions, options.verbose, (gone) => `delete ${gone.key}`),
    `would keep ${counted(unchanged.length, "object")} unchanged, ${bytesOf(unchanged)}`,
    ...shown(unchanged, options.verbose, (kept) => `keep ${kept.key}`),
    "dry run: nothing was written",
  ];
}

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
