// The pure planner: from the answers to publish and the store's record, what to upload, in which order, and what to delete.
import { createHash } from "node:crypto";
import {
  type AnswerKind,
  KIND_ORDER,
  type PublishedAnswer,
  type StoredObject,
} from "./published-answer.js";
import { joinKey, type Receipt, type ReceiptEntry, receiptKey } from "./receipt.js";

/** What the store says it holds under the prefix: listed keys with their ETags, and the receipt. */
export interface StoreRecord {
  readonly listed: ReadonlyMap<string, string>;
  readonly receipt: Receipt | null;
}

/**
 * When the objects that left the release are deleted. A CDN or a client may hold a list or a
 * discovery file up to its max-age, and follow a link in it to an object that left since: such an
 * object is kept `keepRemoved` seconds after it left, and deleted by the first run after that.
 */
export interface Removal {
  /** The time of this run: the receipt records it as when an object left. */
  readonly now: Date;
  /** Seconds an object that left is kept; 0 deletes it in the run that sees it leave. */
  readonly keepRemoved: number;
  /** Keys that must stop being public at once, kept or not (keyed answers, --include-keyed not given). */
  readonly atOnce?: (key: string) => boolean;
}

/** A key that left the release and stays up for now: its receipt entry, with when it left. */
export interface KeptObject {
  readonly key: string;
  readonly entry: ReceiptEntry & { readonly removedAt: string };
}

/** Every object that left the release deleted in the run that sees it leave. */
const AT_ONCE: Removal = { now: new Date(0), keepRemoved: 0 };

export interface Plan {
  /** Upload phases in publishing order (answers, lists, discovery); each completes before the next starts. */
  readonly uploads: readonly (readonly StoredObject[])[];
  /**
   * Keys velodata wrote that left the release and are due (or must go at once), in phases
   * (discovery, lists, answers); deleted after every upload.
   */
  readonly deletions: readonly (readonly string[])[];
  /** Keys that left the release less than `keepRemoved` seconds ago, sorted: the receipt keeps them. */
  readonly keptForLater: readonly KeptObject[];
  /** Of those, the ones that left with this run: the receipt must say when, though nothing else changed. */
  readonly newlyRemoved: number;
  /** Objects the store already holds with these bytes and headers. */
  readonly unchanged: readonly StoredObject[];
  /** The keys of uploads the receipt marks pending: a run that did not finish was changing them. */
  readonly resumed: ReadonlySet<string>;
  /** Written before the first upload: the old receipt with every object about to change marked pending. */
  readonly pendingReceipt: Receipt;
}

/**
 * The object key of an answer: the prefix and its URL path, decoded, since a CDN in front of the
 * bucket asks the store for the decoded path. Extension-less like the URL: object stores have
 * no folders, so `vls/v3/stations` and `vls/v3/stations/dublin` coexist.
 */
export function objectKey(prefix: string, urlPath: string): string {
  // A folder's page (`/`, `/docs/`) is its `index.html`, the index document S3 websites and CDNs name.
  const path = urlPath.endsWith("/") ? `${urlPath}index.html` : urlPath;
  return joinKey(prefix, decodeURIComponent(path.replace(/^\/+/, "")));
}

/**
 * Which bytes go up: the gzip variant when the answer carries one (`publish --gzip` hands them
 * over), stored with `Content-Encoding: gzip`, which every client that asks for compression
 * takes (brotli is never stored: some that ask do not take it); otherwise the plain bytes.
 */
export function storedObjectOf(answer: PublishedAnswer, prefix: string): StoredObject {
  const gzip = answer.variants?.find((variant) => variant.encoding === "gzip");
  const bytes = gzip ?? answer;
  const contentEncoding = gzip ? ("gzip" as const) : undefined;
  const fingerprint = createHash("sha1")
    .update(
      [
        bytes.etag,
        answer.contentType,
        answer.cacheControl,
        contentEncoding ?? "identity",
        // Only when there is one: the fingerprints of the other objects stay what they were.
        ...(answer.contentDisposition ? [answer.contentDisposition] : []),
      ].join("\n"),
    )
    .digest("base64url");
  return {
    key: objectKey(prefix, answer.urlPath),
    kind: answer.kind,
    contentType: answer.contentType,
    cacheControl: answer.cacheControl,
    ...(answer.contentDisposition ? { contentDisposition: answer.contentDisposition } : {}),
    ...(contentEncoding ? { contentEncoding } : {}),
    fingerprint,
    read: () => bytes.read(),
  };
}

export function planPublish(
  answers: readonly PublishedAnswer[],
  record: StoreRecord,
  prefix: string,
  removal: Removal = AT_ONCE,
): Plan {
  const objects = storedObjectsOf(answers, prefix);
  const held = record.receipt?.objects ?? {};
  const inPlace = (object: StoredObject): boolean => {
    const entry = held[object.key];
    return (
      entry?.fingerprint === object.fingerprint &&
      entry.etag !== undefined &&
      record.listed.get(object.key) === entry.etag
    );
  };
  const changed = objects.filter((object) => !inPlace(object));
  const unchanged = objects.filter(inPlace);
  const resumed = new Set(
    changed
      .filter(({ key }) => held[key] !== undefined && held[key].fingerprint === undefined)
      .map(({ key }) => key),
  );

  const wanted = new Set(objects.map((object) => object.key));
  // Only what velodata wrote is ever deleted: a prefix may hold other objects. Whether the listing
  // shows it or not: a listing that leaves a key out (a store's paging bug, a lagging index) would
  // otherwise drop it from the next receipt, and a keyed answer would stay public for good. A
  // DELETE of a key already gone does no harm.
  const leaving = Object.entries(held)
    .filter(([key]) => !wanted.has(key))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const now = removal.now.toISOString();
  const keptForLater: KeptObject[] = [];
  const due: [string, ReceiptEntry][] = [];
  for (const [key, entry] of leaving) {
    const removedAt = entry.removedAt ?? now;
    const kept = Date.parse(removedAt) + removal.keepRemoved * 1000 > removal.now.getTime();
    if (kept && !removal.atOnce?.(key)) keptForLater.push({ key, entry: { ...entry, removedAt } });
    else due.push([key, entry]);
  }

  const pending: Receipt = { velodataPublish: 1, objects: { ...held } };
  for (const object of changed) pending.objects[object.key] = { kind: object.kind };
  // When they left, even if this run stops: the period does not start again at the next one.
  for (const { key, entry } of keptForLater) pending.objects[key] = entry;

  return {
    uploads: phases(KIND_ORDER, (kind) => changed.filter((object) => object.kind === kind)),
    // The reverse order: nothing still published points at an object once it is deleted.
    deletions: phases([...KIND_ORDER].reverse(), (kind) =>
      due.filter(([, entry]) => entry.kind === kind).map(([key]) => key),
    ),
    keptForLater,
    newlyRemoved: keptForLater.filter(({ key }) => held[key]?.removedAt === undefined).length,
    unchanged,
    resumed,
    pendingReceipt: pending,
  };
}

function storedObjectsOf(answers: readonly PublishedAnswer[], prefix: string): StoredObject[] {
  const reserved = receiptKey(prefix);
  const seen = new Set<string>();
  const objects = answers.map((answer) => storedObjectOf(answer, prefix));
  for (const object of objects) {
    // Both are bugs of the caller (the tree or the route table), not the user's mistakes.
    if (object.key === reserved) throw new Error(`${object.key} is the publisher's own receipt`);
    if (seen.has(object.key)) throw new Error(`two answers publish to the same key ${object.key}`);
    seen.add(object.key);
  }
  // Sorted by key, so that a run always goes in the same order.
  return objects.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** One phase per kind, in the order given, leaving out the empty ones. */
function phases<T>(kinds: readonly AnswerKind[], of: (kind: AnswerKind) => T[]): T[][] {
  return kinds.map(of).filter((phase) => phase.length > 0);
}
