// The executor: reads the store's record, plans, then uploads and deletes in reader-safe order, receipt last.

import { UserError } from "../../errors.js";
import { inParallel } from "./in-parallel.js";
import type { ListedObject, ObjectStore, StoreReader } from "./object-store.js";
import { type Plan, planPublish } from "./plan.js";
import type { PublishedAnswer, StoredObject } from "./published-answer.js";
import { type Receipt, readReceipt, receiptKey, type UnreadableReceipt } from "./receipt.js";

export interface PublishAnswersOptions {
  store: ObjectStore;
  /** Where under the bucket; empty for its root. */
  prefix: string;
  /** Requests in flight at most. */
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface PublishStats {
  uploaded: number;
  /** Of those, the ones a run that did not finish left pending. */
  resumed: number;
  /** The keys deleted. */
  deleted: string[];
  unchanged: number;
  /** Bytes uploaded. */
  bytes: number;
}

const CONCURRENCY = 16;

/**
 * A run stopped at any point leaves each key holding whole old or whole new bytes (a PUT
 * replaces an object whole), lists never point at answers not yet up, and the receipt marks
 * every object the run was changing as pending, so that the next run uploads them again.
 */
export async function publishAnswers(
  answers: readonly PublishedAnswer[],
  options: PublishAnswersOptions,
): Promise<PublishStats> {
  const { store, prefix } = options;
  const concurrency = options.concurrency ?? CONCURRENCY;
  const { plan, listed } = await readPlan(answers, store, prefix);

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

  if (total > 0 || deletions > 0) {
    const objects = [...plan.unchanged, ...plan.uploads.flat()];
    await writeReceipt(store, prefix, receiptOf(objects, etags));
  }
  return {
    uploaded: total,
    resumed: plan.resumed.size,
    deleted: plan.deletions.flat(),
    unchanged: plan.unchanged.length,
    bytes,
  };
}

/** Reads the store's record (its listing and the receipt) and plans against it; writes nothing. */
export async function readPlan(
  answers: readonly PublishedAnswer[],
  store: StoreReader,
  prefix: string,
): Promise<{ plan: Plan; listed: ReadonlyMap<string, ListedObject> }> {
  const [listed, receiptText] = await Promise.all([
    store.list(prefix),
    store.readText(receiptKey(prefix)),
  ]);
  const receipt = receiptText === null ? null : readReceipt(receiptText);
  if (receipt !== null && "unreadable" in receipt) throw unreadableReceipt(store, prefix, receipt);
  const etags = new Map([...listed].map(([key, object]) => [key, object.etag]));
  return { plan: planPublish(answers, { listed: etags, receipt }, prefix), listed };
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
): Receipt {
  const receipt: Receipt = { velodataPublish: 1, objects: {} };
  for (const object of [...objects].sort((a, b) => (a.key < b.key ? -1 : 1))) {
    const etag = etags.get(object.key);
    // A store that gave no ETag leaves the entry pending: uploaded again next time, never trusted.
    receipt.objects[object.key] =
      etag === undefined
        ? { kind: object.kind }
        : { kind: object.kind, fingerprint: object.fingerprint, etag };
  }
  return receipt;
}

async function writeReceipt(store: ObjectStore, prefix: string, receipt: Receipt): Promise<void> {
  await store.put(receiptKey(prefix), Buffer.from(JSON.stringify(receipt)), {
    contentType: "application/json",
    cacheControl: "no-store",
  });
}
