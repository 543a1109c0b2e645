// The pure planner: from the answers to publish and the store's record, what to upload, in which order, and what to delete.
import { createHash } from "node:crypto";
import {
  type AnswerKind,
  KIND_ORDER,
  type PublishedAnswer,
  type StoredObject,
} from "./published-answer.js";
import { joinKey, type Receipt, receiptKey } from "./receipt.js";

/** What the store says it holds under the prefix: listed keys with their ETags, and the receipt. */
export interface StoreRecord {
  readonly listed: ReadonlyMap<string, string>;
  readonly receipt: Receipt | null;
}

export interface Plan {
  /** Upload phases in publishing order (answers, lists, discovery); each completes before the next starts. */
  readonly uploads: readonly (readonly StoredObject[])[];
  /** Keys velodata wrote that left the release, in phases (discovery, lists, answers); deleted after every upload. */
  readonly deletions: readonly (readonly string[])[];
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

  const pending: Receipt = { velodataPublish: 1, objects: { ...held } };
  for (const object of changed) pending.objects[object.key] = { kind: object.kind };

  return {
    uploads: phases(KIND_ORDER, (kind) => changed.filter((object) => object.kind === kind)),
    // The reverse order: nothing still published points at an object once it is deleted.
    deletions: phases([...KIND_ORDER].reverse(), (kind) =>
      leaving.filter(([, entry]) => entry.kind === kind).map(([key]) => key),
    ),
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
