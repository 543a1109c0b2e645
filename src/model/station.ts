// A station's static description: what changes only when the network is rebuilt.
import { z } from "zod";
import { count as capacity } from "./int32.js";
import { latitude, longitude } from "./position.js";
import { recordNumber } from "./record-number.js";

export const Station = z.strictObject({
  contract: z.string().min(1),
  number: recordNumber,
  name: z.string().min(1),
  address: z.string(),
  latitude,
  longitude,
  banking: z.boolean(),
  bonus: z.boolean(),
  overflow: z.boolean().describe("The station accepts overflow bike returns"),
  capacity: capacity.describe("Number of main stands"),
  overflowCapacity: capacity.nullable().default(null).describe("Number of overflow stands, if any"),
});
export type Station = z.infer<typeof Station>;

export const StationsFile = z.strictObject({ stations: z.array(z.unknown()) });
