// The legacy v1 resources as the original service emitted them. Key order here is the order it emits.
import { z } from "zod";
import { CONTRACT, POSITION, STATION } from "./field-meanings.js";

// v1 knows no stand groups: its figures are v3's `totalStands`, main + overflow.
export const StationV1 = z
  .object({
    number: z.number().int().describe(STATION.number),
    contract_name: z.string().describe(STATION.contract),
    name: z.string().describe(STATION.name),
    address: z.string().describe(STATION.address),
    position: z
      .object({
        lat: z.number().describe(POSITION.latitude),
        lng: z.number().describe(POSITION.longitude),
      })
      .describe("Where the station is: WGS84 coordinates (v3's `position`)."),
    banking: z.boolean().describe(STATION.banking),
    bonus: z.boolean().describe(STATION.bonus),
    bike_stands: z
      .number()
      .int()
      .describe("Number of stands, main + overflow (v3's `totalStands.capacity`)."),
    available_bike_stands: z
      .number()
      .int()
      .describe("Free stands, main + overflow (v3's `totalStands.availabilities.stands`)."),
    available_bikes: z
      .number()
      .int()
      .describe(
        "Bikes docked, of every kind, main + overflow (v3's `totalStands.availabilities.bikes`).",
      ),
    status: z.enum(["OPEN", "CLOSED"]).describe(STATION.status),
    // int64: milliseconds pass 2^31 (a generated client's int, in Java, Kotlin, C# or Go, would not hold them).
    last_update: z
      .number()
      .int()
      .meta({ format: "int64" })
      .nullable()
      .describe(
        "Time of the station's last reported state, in milliseconds since 1970-01-01T00:00:00Z (whole seconds). null when the station never reported.",
      ),
  })
  .meta({ id: "StationV1" });
export type StationV1 = z.infer<typeof StationV1>;

/**
 * v1 contracts have v3's fields, in the order the real v1 service emitted them (several clients of
 * it quote `{"name":"Rouen","cities":["Rouen"],"commercial_name":"cy'clic","country_code":"FR"}`).
 */
export const ContractV1 = z
  .object({
    name: z.string().describe(CONTRACT.name),
    cities: z.array(z.string()).describe(CONTRACT.cities),
    commercial_name: z.string().describe(CONTRACT.commercial_name),
    country_code: z.string().describe(CONTRACT.country_code),
  })
  .meta({ id: "ContractV1" });
export type ContractV1 = z.infer<typeof ContractV1>;
