// A dry run of the publisher: the plan a run would carry out against the store, with the bytes involved; nothing written.
import { inParallel } from "./in-parallel.js";
import { readOnly, type StoreReader } from "./object-store.js";
import type { Removal } from "./plan.js";
import { readPlan } from "./publish-answers.js";
import type { PublishedAnswer } from "./published-answer.js";

export interface PlannedObject {
  readonly key: string;
  readonly bytes: number;
}

export interface PlannedPut extends PlannedObject {
  /** No object at that key yet, as the store lists it; otherwise one is replaced. */
  readonly isNew: boolean;
  /** Pending in the receipt: a run that did not finish was changing it (new or not). */
  readonly resumed: boolean;
}

export interface PublishPreview {
  /** In the order a run would upload them. */
  readonly puts: readonly PlannedPut[];
  /** Bytes as the store lists them. */
  readonly unchanged: readonly PlannedObject[];
  /** In the order a run would delete them; bytes as listed, 0 for a key the listing leaves out. */
  readonly deletions: readonly PlannedObject[];
  /** Left the release, kept up for now (see Removal); bytes as listed. */
  readonly keptForLater: readonly PlannedKept[];
}

export interface PlannedKept extends PlannedObject {
  /** When it left the release, as the receipt says (or this run, for one that leaves now). */
  readonly removedAt: string;
}

/**
 * Reads the store as a run would (so refused credentials, a missing bucket or an unreachable
 * store fail here too) and every file a run would upload (so a tree missing one fails too).
 * The store is narrowed to its reading half first: this module can neither put nor delete.
 */
export async function previewPublish(
  answers: readonly PublishedAnswer[],
  options: { store: StoreReader; prefix: string; concurrency: number; removal: Removal },
): Promise<PublishPreview> {
  const { store, prefix, removal } = options;
  const { plan, listed } = await readPlan(answers, readOnly(store), prefix, removal);
  const uploads = plan.uploads.flat();
  const sizes = new Map<string, number>();
  await inParallel(uploads, options.concurrency, async (object) => {
    sizes.set(object.key, (await object.read()).byteLength);
  });
  const listedBytes = (key: string) => listed.get(key)?.size ?? 0;
  return {
    puts: uploads.map(({ key }) => ({
      key,
      bytes: sizes.get(key) ?? 0,
      isNew: !listed.has(key),
      resumed: plan.resumed.has(key),
    })),
    unchanged: plan.unchanged.map(({ key }) => ({ key, bytes: listedBytes(key) })),
    deletions: plan.deletions.flat().map((key) => ({ key, bytes: listedBytes(key) })),
    keptForLater: plan.keptForLater.map(({ key, entry }) => ({
      key,
      bytes: listedBytes(key),
      removedAt: entry.removedAt,
    })),
  };
}
