// The live state of one station, sent every minute, kept apart from the static description.
import { z } from "zod";
import { count } from "./int32.js";
import { recordNumber } from "./record-number.js";
import { instantSince1970 } from "./since-1970.js";

/** Bikes and free stands of one group of stands (main or overflow). Totals are optional: derived when absent, checked when given. */
export const StandsState = z.strictObject({
  bikes: count.optional(),
  stands: count,
  mechanicalBikes: count,
  electricalBikes: count.optional(),
  electricalInternalBatteryBikes: count,
  electricalRemovableBatteryBikes: count,
});
export type StandsState = z.infer<typeof StandsState>;

export const StationState = z.strictObject({
  contract: z.string().min(1),
  number: recordNumber,
  status: z.enum(["OPEN", "CLOSED"]),
  connected: z.boolean(),
  // Parsed by the rule `lastUpdateIsUtcInstant`, which insists on an explicit offset.
  lastUpdate: z
    .string({
      // Seconds or milliseconds since 1970, as v1 answers and many feeds write them.
      error: (issue) =>
        typeof issue.input === "number"
          ? `is a number (seconds or milliseconds since 1970?): write it as a date and time, ${instantSince1970(issue.input)}`
          : undefined,
    })
    .nullable(),
  mainStands: StandsState,
  overflowStands: StandsState.nullable().default(null),
});
export type StationState = z.infer<typeof StationState>;

export const StatesFile = z.strictObject({ states: z.array(z.unknown()) });
