// The vehicle types of a system, from the kinds of bike its contract declares, and their feed.
import type { Availabilities } from "../../../model/api.js";
import { BIKE_KINDS, type BikeKind, type Contract } from "../../../model/contract.js";
import { type Freshness, type GbfsFile, type GbfsVersion, gbfsFile } from "./feed.js";

export interface VehicleType {
  /** Stable: named after the kind, so ids never change between builds. */
  id: string;
  kind: BikeKind;
  propulsion: "human" | "electric_assist";
  maxRangeMeters?: number;
  /** This kind's bikes in one group of stands. */
  count(availabilities: Availabilities): number;
}

const KINDS: Record<BikeKind, Omit<VehicleType, "maxRangeMeters">> = {
  mechanical: {
    id: "mechanical",
    kind: "mechanical",
    propulsion: "human",
    count: (a) => a.mechanicalBikes,
  },
  electricalInternalBattery: {
    id: "electrical_internal_battery",
    kind: "electricalInternalBattery",
    propulsion: "electric_assist",
    count: (a) => a.electricalInternalBatteryBikes,
  },
  electricalRemovableBattery: {
    id: "electrical_removable_battery",
    kind: "electricalRemovableBattery",
    propulsion: "electric_assist",
    count: (a) => a.electricalRemovableBatteryBikes,
  },
};

/** The declared kinds, always in the same order (mechanical, internal, removable battery). */
export function vehicleTypesOf(contract: Contract): VehicleType[] {
  const declared = contract.bikeTypes ?? {};
  return BIKE_KINDS.flatMap((kind) => {
    const source = declared[kind];
    if (!source) return [];
    const range = source.max_range_meters;
    return [{ ...KINDS[kind], ...(range === undefined ? {} : { maxRangeMeters: range }) }];
  });
}

export interface VehicleTypeEntry {
  vehicle_type_id: string;
  form_factor: "bicycle";
  propulsion_type: VehicleType["propulsion"];
  max_range_meters?: number;
}

export function renderVehicleTypes(
  contract: Contract,
  version: GbfsVersion,
  freshness: Freshness,
): GbfsFile<{ vehicle_types: VehicleTypeEntry[] }> {
  const vehicle_types = vehicleTypesOf(contract).map((type) => ({
    vehicle_type_id: type.id,
    form_factor: "bicycle" as const,
    propulsion_type: type.propulsion,
    ...(type.maxRangeMeters === undefined ? {} : { max_range_meters: type.maxRangeMeters }),
  }));
  return gbfsFile(version, freshness, { vehicle_types });
}
