// The executor: reads the store's record, plans, then uploads and deletes in reader-safe order, receipt last.

import { UserError } from "../../errors.js";
import { inParallel } from "./in-parallel.js";
import type { ListedObject, ObjectStore, StoreReader } from "./object-store.js";
import { type KeptObject, type Plan, planPublish, type Removal } from "./plan.js";
import type { PublishedAnswer, StoredObject } from "./published-answer.js";
import {
  type Receipt,
  type ReceiptEntry,
  readReceipt,
  receiptKey,
  type UnreadableReceipt,
} from "./receipt.js";

export interface PublishAnswersOptions {
  store: ObjectStore;
  /** Where under the bucket; empty for its root. */
  prefix: string;
  /** Requests in flight at most. */
  concurrency?: number;
  /** Seconds an object that left the release is kept before a run deletes it (see Removal); default 0. */
  keepRemoved?: number;
  /** Keys deleted in the run that sees them leave whatever keepRemoved says (see Removal). */
  atOnce?: (key: string) => boolean;
  /** This run's time, which the receipt records as when objects left; default the clock's. */
  now?: Date;
  /** Called with the plan and the store's listing once made, before the first write. */
  beforeWrites?: (plan: Plan, listed: ReadonlyMap<string, ListedObject>) => void;
  onProgress?: (done: number, total: number) => void;
}

export interface PublishStats {
  uploaded: number;
  /** Of those, the ones a run that did not finish left pending. */
  resumed: number;
  /** The keys deleted. */
  deleted: string[];
  /** Objects that left the release, kept up for now: a later run deletes them. */
  keptForLater: number;
  unchanged: number;
  /** Bytes uploaded. */
  bytes: number;
}

const CONCURRENCY = 16;

/**
 * A run stopped at any point leaves each key holding whole old or whole new bytes (a PUT
 * replaces an object whole), lists never point at answers not yet up, and the receipt marks
 * every object the run was changing as pending, so that the next run uploads them again. An
 * object that left the release stays in the receipt until a run deletes it (see Removal).
 */
export async function publishAnswers(
  answers: readonly PublishedAnswer[],
  options: PublishAnswersOptions,
): Promise<PublishStats> {
  const { store, prefix } = options;
  const concurrency = options.concurrency ?? CONCURRENCY;
  const removal: Removal = {
    now: options.now ?? new Date(),
    keepRemoved: options.keepRemoved ?? 0,
    ...(options.atOnce ? { atOnce: options.atOnce } : {}),
  };
  const { plan, listed } = await readPlan(answers, store, prefix, removal);
  options.beforeWrites?.(plan, listed);

  const etags = new Map(plan.unchanged.map((object) => [object.key, listed.get(object.key)?.etag]));
  const total = plan.uploads.reduce((count, phase) => count + phase.length, 0);
  const deletions = plan.deletions.reduce((count, phase) => count + phase.length, 0);
  if (total > 0) await writeReceipt(store, prefix, plan.pendingReceipt);

  let done = 0;
  let bytes = 0;
  for (const phase of plan.uploads) {
    await inParallel(phase, concurrency, async (object) => {
      const body = await object.read();
      etags.set(object.key, await store.put(object.key, body, object));
      bytes += body.byteLength;
      options.onProgress?.(++done, total);
    });
  }
  for (const phase of plan.deletions)
    await inParallel(phase, concurrency, (key) => store.delete(key));

  // A receipt without the objects kept for later would have them up for good: they are in it
  // until deleted, and a run stopped before it is written leaves the last one, which has them too.
  if (total > 0 || deletions > 0 || plan.newlyRemoved > 0) {
    const objects = [...plan.unchanged, ...plan.uploads.flat()];
    await writeReceipt(store, prefix, receiptOf(objects, etags, plan.keptForLater));
  }
  return {
    uploaded: total,
    resumed: plan.resumed.size,
    deleted: plan.deletions.flat(),
    keptForLater: plan.keptForLater.length,
    unchanged: plan.unchanged.length,
    bytes,
  };
}

/** Reads the store's record (its listing and the receipt) and plans against it; writes nothing. */
export async function readPlan(
  answers: readonly PublishedAnswer[],
  store: StoreReader,
  prefix: string,
  removal: Removal,
): Promise<{ plan: Plan; listed: ReadonlyMap<string, ListedObject> }> {
  const [listed, receiptText] = await Promise.all([
    store.list(prefix),
    store.readText(receiptKey(prefix)),
  ]);
  const receipt = receiptText === null ? null : readReceipt(receiptText);
  if (receipt !== null && "unreadable" in receipt) throw unreadableReceipt(store, prefix, receipt);
  const etags = new Map([...listed].map(([key, object]) => [key, object.etag]));
  return { plan: planPublish(answers, { listed: etags, receipt }, prefix, removal), listed };
}

const WHAT_TO_DO: Record<UnreadableReceipt["kind"], string> = {
  page: "check --endpoint: the store's API address, not a website or a CDN in front of it",
  format: "publish with the velodata that wrote it, a newer one",
  damaged:
    "delete that object and publish again: every answer then goes up again, and the objects only the lost receipt knew of (keyed answers, answers no longer in the tree) stay until deleted by hand",
};

function unreadableReceipt(
  store: StoreReader,
  prefix: string,
  receipt: UnreadableReceipt,
): UserError {
  const where = store.where ? ` (${store.where})` : "";
  return new UserError(
    `the store's receipt ${receiptKey(prefix)}${where} cannot be read (${receipt.unreadable}): it records which objects velodata put up, and is never replaced unread; nothing was uploaded or deleted`,
    [WHAT_TO_DO[receipt.kind]],
  );
}

function receiptOf(
  objects: readonly StoredObject[],
  etags: ReadonlyMap<string, string | undefined>,
  keptForLater: readonly KeptObject[],
): Receipt {
  const entries: [string, ReceiptEntry][] = [
    ...objects.map((object): [string, ReceiptEntry] => [
      object.key,
      entryOf(object, etags.get(object.key)),
    ]),
    ...keptForLater.map(({ key, entry }): [string, ReceiptEntry] => [key, entry]),
  ];
  const receipt: Receipt = { velodataPublish: 1, objects: {} };
  for (const [key, entry] of entries.sort(([a], [b]) => (a < b ? -1 : 1)))
    receipt.objects[key] = entry;
  return receipt;
}

/** A store that gave no ETag leaves the entry pending: uploaded again next time, never trusted. */
const entryOf = (object: StoredObject, etag: string | undefined): ReceiptEntry =>
  etag === undefined
    ? { kind: object.kind }
    : { kind: object.kind, fingerprint: object.fingerprint, etag };

async function writeReceipt(store: ObjectStore, prefix: string, receipt: Receipt): Promise<void> {
  await store.put(receiptKey(prefix), Buffer.from(JSON.stringify(receipt)), {
    contentType: "application/json",
    cacheControl: "no-store",
  });
}
