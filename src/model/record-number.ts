// The number of a station or a parking: the API's URLs take at most 15 digits (and every such
// number is exact in a double), so the source may not hold a longer one it could never serve; and
// its clients read it as a 32-bit int (see int32.ts).
import { z } from "zod";
import { INT32_MAX } from "./int32.js";

export const MAX_NUMBER_DIGITS = 15;

// The bound is checked first and alone: a number past 2^53 would otherwise also get zod's "at
// most 9007199254740991", a second error about the same field quoting a rounded number. The
// 32-bit bound is the stricter: a longer number is said to be out of it, not to have too many digits.
export const recordNumber = z.number().max(INT32_MAX, { abort: true }).int().nonnegative();
