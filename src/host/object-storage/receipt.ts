// The store's receipt: which objects velodata wrote under a prefix, with the ETag the store gave each one.
import { z } from "zod";
import { KIND_ORDER } from "./published-answer.js";

/**
 * Kept as an object beside the answers (`PREFIX/.velodata-publish.json`). An entry with a
 * fingerprint and an ETag says "the store answered this ETag when it took these bytes and
 * headers"; it is trusted only while the store still lists that ETag for the key. An entry with
 * neither is pending: a run was about to replace that object and may have stopped part-way.
 */
export const RECEIPT_NAME = ".velodata-publish.json";

const entrySchema = z.object({
  kind: z.enum(KIND_ORDER),
  fingerprint: z.string().optional(),
  etag: z.string().optional(),
});

const receiptSchema = z.object({
  velodataPublish: z.literal(1),
  objects: z.record(z.string(), entrySchema),
});

export type ReceiptEntry = z.infer<typeof entrySchema>;
export type Receipt = z.infer<typeof receiptSchema>;

export const emptyReceipt = (): Receipt => ({ velodataPublish: 1, objects: {} });

/** Null when the text is not a receipt: the publisher then trusts nothing and uploads everything. */
export function parseReceipt(text: string): Receipt | null {
  try {
    const parsed = receiptSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const receiptKey = (prefix: string): string => joinKey(prefix, RECEIPT_NAME);

/** An object key under a prefix; an empty prefix is the bucket's root. */
export const joinKey = (prefix: string, name: string): string =>
  prefix === "" ? name : `${prefix}/${name}`;
