// The resources as the API publishes them. Key order here is the order the real service emits.
// A `meta` id names the schema in the OpenAPI document.
import { z } from "zod";
import { Position } from "./position.js";

export const Availabilities = z.object({
  bikes: z.number().int(),
  stands: z.number().int(),
  mechanicalBikes: z.number().int(),
  electricalBikes: z.number().int(),
  electricalInternalBatteryBikes: z.number().int(),
  electricalRemovableBatteryBikes: z.number().int(),
});
export type Availabilities = z.infer<typeof Availabilities>;

export const Stands = z.object({ availabilities: Availabilities, capacity: z.number().int() });
export type Stands = z.infer<typeof Stands>;

export const StationV3 = z
  .object({
    number: z.number().int(),
    contractName: z.string(),
    name: z.string(),
    address: z.string(),
    position: Position,
    banking: z.boolean(),
    bonus: z.boolean(),
    status: z.enum(["OPEN", "CLOSED"]),
    lastUpdate: z
      .string()
      .nullable()
      .describe("ISO 8601 UTC, whole seconds; null when never reported"),
    connected: z.boolean(),
    overflow: z.boolean(),
    shape: z.null(),
    totalStands: Stands,
    mainStands: Stands,
    overflowStands: Stands.nullable(),
  })
  .meta({ id: "StationV3" });
export type StationV3 = z.infer<typeof StationV3>;

export const ContractV3 = z
  .object({
    name: z.string(),
    commercial_name: z.string(),
    country_code: z.string(),
    cities: z.array(z.string()),
  })
  .meta({ id: "Contract" });
export type ContractV3 = z.infer<typeof ContractV3>;

export const ParkingV1 = z
  .object({
    contractName: z.string(),
    name: z.string(),
    number: z.number().int(),
    status: z.enum(["OPEN", "CLOSED"]),
    position: Position,
    accessType: z.enum(["FREE_ACCESS", "SECURED"]),
    lockerType: z.enum(["SINGLE", "COLLECTIVE"]),
    hasSurveillance: z.boolean(),
    isFree: z.boolean(),
    address: z.string(),
    zipCode: z.string(),
    city: z.string(),
    isOffStreet: z.boolean(),
    hasElectricSupport: z.boolean(),
    hasPhysicalReception: z.boolean(),
  })
  .meta({ id: "Parking" });
export type ParkingV1 = z.infer<typeof ParkingV1>;
