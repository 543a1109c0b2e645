// The original service is Java: its clients read numbers, capacities and counts as a 32-bit int
// (JCDecaux/opendata-client's `Integer number`, `Integer bikeStands`), and one value past it makes
// a whole list unreadable to them ("out of range of int"), not only the record that holds it.
import { z } from "zod";

export const INT32_MAX = 2_147_483_647;

/** The refusal of a value past INT32_MAX, worded as the other bounds are, with the reason. */
export const int32Refusal = {
  error: (issue: { input?: unknown }) =>
    `must be at most ${INT32_MAX}, got ${String(issue.input)}: the original service's clients read it as a 32-bit integer`,
};

/** A count or capacity of stands or bikes. */
export const count = z.number().int().nonnegative().max(INT32_MAX, int32Refusal);
