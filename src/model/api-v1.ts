// The legacy v1 resources as the original service emitted them. Key order here is the order it emits.
import { z } from "zod";
import { ContractV3 } from "./api.js";

export const StationV1 = z
  .object({
    number: z.number().int(),
    contract_name: z.string(),
    name: z.string(),
    address: z.string(),
    position: z.object({ lat: z.number(), lng: z.number() }),
    banking: z.boolean(),
    bonus: z.boolean(),
    bike_stands: z.number().int().describe("main + overflow stands"),
    available_bike_stands: z.number().int(),
    available_bikes: z.number().int(),
    status: z.enum(["OPEN", "CLOSED"]),
    last_update: z
      .number()
      .int()
      .nullable()
      .describe("epoch milliseconds; null for a station that never reported"),
  })
  .meta({ id: "StationV1" });
export type StationV1 = z.infer<typeof StationV1>;

/** v1 contracts have the same fields, in the same order, as v3's. */
export const ContractV1 = ContractV3;
export type ContractV1 = ContractV3;
