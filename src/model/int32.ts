// The original service is Java: its clients read numbers, capacities and counts as a 32-bit int
// (JCDecaux/opendata-client's `Integer number`, `Integer bikeStands`), and one value past it makes
// a whole list unreadable to them ("out of range of int"), not only the record that holds it.
import { z } from "zod";

export const INT32_MAX = 2_147_483_647;

/**
 * A count or capacity of stands or bikes. A plain bound, worded by parse-records.ts: checks with
 * error functions or refinements of their own made every zod parse of the process ~2× slower.
 * The bound is checked first and alone: a number past 2^53 would otherwise also get `int`'s "at
 * most 9007199254740991", a second error about the same field (see record-number.ts).
 */
export const count = z.number().max(INT32_MAX, { abort: true }).int().nonnegative();

/** The values a count or a number may take, as an error says them. */
export const INT32_RANGE = "a whole number from 0 to 2,147,483,647 (at most 10 digits)";

/** Why INT32_MAX, said after the bound in an error. */
export const INT32_REASON = "the original service's clients read it as a 32-bit integer";
