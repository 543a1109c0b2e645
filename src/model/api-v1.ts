// The legacy v1 resources as the original service emitted them. Key order here is the order it emits.
import { z } from "zod";

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

/**
 * v1 contracts have v3's fields, in the order the real v1 service emitted them (several clients of
 * it quote `{"name":"Rouen","cities":["Rouen"],"commercial_name":"cy'clic","country_code":"FR"}`).
 */
export const ContractV1 = z
  .object({
    name: z.string(),
    cities: z.array(z.string()),
    commercial_name: z.string(),
    country_code: z.string(),
  })
  .meta({ id: "ContractV1" });
export type ContractV1 = z.infer<typeof ContractV1>;
