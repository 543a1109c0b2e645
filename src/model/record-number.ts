// The number of a station or a parking: the API's URLs take at most 15 digits (and every such
// number is exact in a double), so the source may not hold a longer one it could never serve.
import { z } from "zod";

export const MAX_NUMBER_DIGITS = 15;

export const recordNumber = z
  .number()
  .int()
  .nonnegative()
  .max(
    10 ** MAX_NUMBER_DIGITS - 1,
    `must have at most ${MAX_NUMBER_DIGITS} digits: the API's URLs take no more`,
  );
