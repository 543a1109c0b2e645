// The live state of one station, sent every minute, kept apart from the static description.
import { z } from "zod";
import { count } from "./int32.js";
import { recordNumber } from "./record-number.js";

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
  lastUpdate: z.string().nullable(),
  mainStands: StandsState,
  overflowStands: StandsState.nullable().default(null),
});
export type StationState = z.infer<typeof StationState>;

export const StatesFile = z.strictObject({ states: z.array(z.unknown()) });
