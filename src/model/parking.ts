// A bike parking: all static, one record per parking, every field of the parking resource.
import { z } from "zod";
import { latitude, longitude } from "./position.js";
import { recordNumber } from "./record-number.js";

export const AccessType = z.enum(["FREE_ACCESS", "SECURED"]);
export const LockerType = z.enum(["SINGLE", "COLLECTIVE"]);

export const Parking = z.strictObject({
  contract: z.string().min(1),
  number: recordNumber,
  name: z.string().min(1),
  status: z.enum(["OPEN", "CLOSED"]),
  latitude,
  longitude,
  accessType: AccessType,
  lockerType: LockerType,
  hasSurveillance: z.boolean(),
  isFree: z.boolean(),
  address: z.string(),
  zipCode: z.string().describe("Postal code, kept as text: leading zeros matter"),
  city: z.string(),
  isOffStreet: z.boolean(),
  hasElectricSupport: z.boolean(),
  hasPhysicalReception: z.boolean(),
});
export type Parking = z.infer<typeof Parking>;

export const ParkingsFile = z.strictObject({ parkings: z.array(z.unknown()) });
