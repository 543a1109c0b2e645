// The resources as the API publishes them. Key order here is the order the real service emits.
// A `meta` id names the schema in the OpenAPI document; each field's `describe` is its meaning there.
import { z } from "zod";
import { CONTRACT, PARKING, STATION } from "./field-meanings.js";
import { latitude, longitude, Position } from "./position.js";

// One group of stands (main, overflow, or both): the same fields mean the same in each.
export const Availabilities = z.object({
  bikes: z
    .number()
    .int()
    .describe("Bikes docked, of every kind: `mechanicalBikes` + `electricalBikes`."),
  stands: z.number().int().describe("Free stands, where a bike can be returned."),
  mechanicalBikes: z.number().int().describe("Mechanical (non-electrical) bikes docked."),
  electricalBikes: z
    .number()
    .int()
    .describe(
      "Electrical bikes docked: `electricalInternalBatteryBikes` + `electricalRemovableBatteryBikes`.",
    ),
  electricalInternalBatteryBikes: z
    .number()
    .int()
    .describe("Electrical bikes docked whose battery is built in."),
  electricalRemovableBatteryBikes: z
    .number()
    .int()
    .describe("Electrical bikes docked whose battery can be removed."),
});
export type Availabilities = z.infer<typeof Availabilities>;

export const Stands = z.object({
  availabilities: Availabilities.describe("Docked bikes, by kind, and free stands of this group."),
  capacity: z
    .number()
    .int()
    .describe(
      "Number of stands of this group. `bikes` + `stands` may be below it: stands out of service.",
    ),
});
export type Stands = z.infer<typeof Stands>;

export const StationV3 = z
  .object({
    number: z.number().int().describe(STATION.number),
    contractName: z.string().describe(STATION.contract),
    name: z.string().describe(STATION.name),
    address: z.string().describe(STATION.address),
    position: Position.describe("Where the station is: WGS84 coordinates."),
    banking: z.boolean().describe(STATION.banking),
    bonus: z.boolean().describe(STATION.bonus),
    status: z.enum(["OPEN", "CLOSED"]).describe(STATION.status),
    lastUpdate: z.iso
      .datetime()
      .nullable()
      .describe(
        "Time of the station's last reported state: ISO 8601 in UTC, whole seconds (`2025-02-08T16:44:06Z`). null when the station never reported.",
      ),
    connected: z
      .boolean()
      .describe(
        "true when the station is connected to the central system. false when it never reported, or when the latest states left it out: its live fields then repeat its last reported state.",
      ),
    overflow: z
      .boolean()
      .describe(
        `${STATION.overflow} Given apart from \`overflowStands\`, which is null unless the station has overflow stands.`,
      ),
    shape: z.null().describe("Unused: always null, as in the original service."),
    totalStands: Stands.describe(
      "The whole station: `mainStands` + `overflowStands`, field by field; equal to `mainStands` when `overflowStands` is null.",
    ),
    mainStands: Stands.describe("The station's physical stands."),
    overflowStands: Stands.nullable().describe(
      "The station's overflow stands; null when it has none. Their counts are 0 while the live state gives none for them.",
    ),
  })
  .meta({ id: "StationV3" });
export type StationV3 = z.infer<typeof StationV3>;

export const ContractV3 = z
  .object({
    name: z.string().describe(CONTRACT.name),
    commercial_name: z.string().describe(CONTRACT.commercial_name),
    country_code: z.string().describe(CONTRACT.country_code),
    cities: z.array(z.string()).describe(CONTRACT.cities),
  })
  .meta({ id: "Contract" });
export type ContractV3 = z.infer<typeof ContractV3>;

export const ParkingV1 = z
  .object({
    contractName: z.string().describe(PARKING.contract),
    name: z.string().describe(PARKING.name),
    number: z.number().int().describe(PARKING.number),
    status: z.enum(["OPEN", "CLOSED"]).describe(PARKING.status),
    position: Position.describe("Where the parking is: WGS84 coordinates."),
    accessType: z.enum(["FREE_ACCESS", "SECURED"]).describe(PARKING.accessType),
    lockerType: z.enum(["SINGLE", "COLLECTIVE"]).describe(PARKING.lockerType),
    hasSurveillance: z.boolean().describe(PARKING.hasSurveillance),
    isFree: z.boolean().describe(PARKING.isFree),
    address: z.string().describe(PARKING.address),
    zipCode: z.string().describe(PARKING.zipCode),
    city: z.string().describe(PARKING.city),
    isOffStreet: z.boolean().describe(PARKING.isOffStreet),
    hasElectricSupport: z.boolean().describe(PARKING.hasElectricSupport),
    hasPhysicalReception: z.boolean().describe(PARKING.hasPhysicalReception),
  })
  .meta({ id: "Parking" });
export type ParkingV1 = z.infer<typeof ParkingV1>;

/** A station of a contract's static download (`/rest/vls/stations/{contract}.json`), as the original service's. */
export const StaticStation = z.object({
  number: z.number().int().describe(STATION.number),
  name: z.string().describe(STATION.name),
  address: z.string().describe(STATION.address),
  latitude,
  longitude,
});
