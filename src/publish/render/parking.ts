// Renders parkings as the parking API (v1) emits them.
import type { ParkingV1 } from "../../model/api.js";
import type { Parking } from "../../model/parking.js";

export function renderParkingV1(parking: Parking): ParkingV1 {
  return {
    contractName: parking.contract,
    name: parking.name,
    number: parking.number,
    status: parking.status,
    position: { latitude: parking.latitude, longitude: parking.longitude },
    accessType: parking.accessType,
    lockerType: parking.lockerType,
    hasSurveillance: parking.hasSurveillance,
    isFree: parking.isFree,
    address: parking.address,
    zipCode: parking.zipCode,
    city: parking.city,
    isOffStreet: parking.isOffStreet,
    hasElectricSupport: parking.hasElectricSupport,
    hasPhysicalReception: parking.hasPhysicalReception,
  };
}
