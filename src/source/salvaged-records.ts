// What of a record its schema refused can still be checked: the fields that pass their own schema,
// for the rules of a record's own fields (see rules/own-fields.ts).
import type { z } from "zod";
import type { RejectedRecord } from "./parse-records.js";
import type { Sourced } from "./problems.js";

/**
 * A record its schema refused, as far as it reads: `value` holds only the fields that pass their
 * own schema (typed whole, for the rules; rules/own-fields.ts runs a rule on it only when the
 * fields it needs are there); `failedFields` are the others, whose problems are said already.
 */
export interface SalvagedRecord<T> extends Sourced<T> {
  failedFields: ReadonlySet<string>;
}

/** Of each rejected record, the fields that pass; none of a record refused as a whole. */
export function salvagedRecords<T>(
  schema: z.ZodObject & z.ZodType<T>,
  rejected: readonly RejectedRecord[],
): SalvagedRecord<T>[] {
  return rejected.flatMap(({ raw, at, failedFields }) => {
    if (failedFields === null || typeof raw !== "object" || raw === null) return [];
    const passed: Record<string, unknown> = {};
    for (const [field, fieldSchema] of Object.entries(schema.shape)) {
      if (failedFields.has(field)) continue;
      const read = fieldSchema.safeParse((raw as Record<string, unknown>)[field]);
      if (read.success && read.data !== undefined) passed[field] = read.data;
    }
    return [{ value: passed as T, at, failedFields }];
  });
}
