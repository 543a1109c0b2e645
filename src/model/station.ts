// A station's static description: what changes only when the network is rebuilt.
import { z } from "zod";
import { count as capacity, INT32_MAX } from "./int32.js";
import { latitude, longitude } from "./position.js";
import { recordNumber } from "./record-number.js";

export const Station = z
  .strictObject({
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
    overflowCapacity: capacity
      .nullable()
      .default(null)
      .describe("Number of overflow stands, if any"),
  })
  .refine((station) => station.capacity + (station.overflowCapacity ?? 0) <= INT32_MAX, {
    path: ["overflowCapacity"],
    error: (issue) => {
      const { capacity, overflowCapacity } = issue.input as {
        capacity: number;
        overflowCapacity: number;
      };
      return `with capacity makes ${capacity + overflowCapacity} stands in all (v3's totalStands, v1's bike_stands), more than ${INT32_MAX}: the original service's clients read that total as a 32-bit integer`;
    },
  });
export type Station = z.infer<typeof Station>;

export const StationsFile = z.strictObject({ stations: z.array(z.unknown()) });
