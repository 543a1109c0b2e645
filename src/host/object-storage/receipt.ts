// The store's receipt: which objects velodata wrote under a prefix, with the ETag the store gave each one.
import { z } from "zod";
import { excerpt } from "../../errors.js";
import { KIND_ORDER } from "./published-answer.js";

/**
 * Kept as an object beside the answers (`PREFIX/.velodata-publish.json`). An entry with a
 * fingerprint and an ETag says "the store answered this ETag when it took these bytes and
 * headers"; it is trusted only while the store still lists that ETag for the key. An entry with
 * neither is pending: a run was about to replace that object and may have stopped part-way. An
 * entry with `removedAt` left the release then: the object stays up until a run deletes it, a
 * grace period later (see planPublish), so that a link read from a cached list still leads to it.
 */
export const RECEIPT_NAME = ".velodata-publish.json";

const entrySchema = z.object({
  kind: z.enum(KIND_ORDER),
  fingerprint: z.string().optional(),
  etag: z.string().optional(),
  // Optional, so the format is still 1: a velodata that does not know it drops the field and
  // deletes the object at once, as it always did; nothing is forgotten either way.
  removedAt: z.iso.datetime().optional(),
});

const receiptSchema = z.object({
  velodataPublish: z.literal(1),
  objects: z.record(z.string(), entrySchema),
});

export type ReceiptEntry = z.infer<typeof entrySchema>;
export type Receipt = z.infer<typeof receiptSchema>;

export const emptyReceipt = (): Receipt => ({ velodataPublish: 1, objects: {} });

/** Why a receipt cannot be read, and of which kind, for what to do about it. */
export interface UnreadableReceipt {
  unreadable: string;
  /** A page (what answered is a website?), another velodata's format, or damaged JSON. */
  kind: "page" | "format" | "damaged";
}

/**
 * The receipt the text holds, or why it holds none. A receipt that cannot be read is never taken
 * for "no receipt": it is the only record of which objects velodata put up, and a run without it
 * would never delete them again (keyed answers, answers that left the tree would stay public).
 */
export function readReceipt(text: string): Receipt | UnreadableReceipt {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return /^\s*</.test(text)
      ? { unreadable: "it is not JSON but a page", kind: "page" }
      : { unreadable: "it is not JSON", kind: "damaged" };
  }
  const format = (value as { velodataPublish?: unknown } | null)?.velodataPublish;
  if (typeof format === "number" && format !== 1)
    return { unreadable: `it has format ${format}, another velodata's`, kind: "format" };
  const parsed = receiptSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const at = issue?.path.map(String).join(".") ?? "";
  const message = issue?.message ?? "not a receipt";
  return { unreadable: at ? `${excerpt(at)}: ${message}` : message, kind: "damaged" };
}

export const receiptKey = (prefix: string): string => joinKey(prefix, RECEIPT_NAME);

/** An object key under a prefix; an empty prefix is the bucket's root. */
export const joinKey = (prefix: string, name: string): string =>
  prefix === "" ? name : `${prefix}/${name}`;
