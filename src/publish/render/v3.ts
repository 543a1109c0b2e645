// Renders contracts and stations exactly as the real service's v3 API emits them (key order included).
import type { Availabilities, ContractV3, Stands, StationV3 } from "../../model/api.js";
import type { Contract } from "../../model/contract.js";
import type { Station } from "../../model/station.js";
import type { LiveState } from "../../source/dataset.js";
import { withFields } from "../../with-fields.js";

export function renderContractV3(contract: Contract): ContractV3 {
  return {
    name: contract.name,
    commercial_name: contract.commercial_name,
    country_code: contract.country_code,
    cities: contract.cities,
  };
}

const NONE: Availabilities = {
  bikes: 0,
  stands: 0,
  mechanicalBikes: 0,
  electricalBikes: 0,
  electricalInternalBatteryBikes: 0,
  electricalRemovableBatteryBikes: 0,
};

/** What a station that never reported shows (see the rule `stationsHaveStates`). */
export const NEVER_REPORTED: LiveState = {
  status: "CLOSED",
  connected: false,
  lastUpdate: null,
  main: NONE,
  overflow: null,
};

export function renderStationV3(station: Station, state: LiveState = NEVER_REPORTED): StationV3 {
  const mainStands = stands(state.main, station.capacity);
  const overflowStands =
    station.overflowCapacity === null
      ? null
      : stands(state.overflow ?? NONE, station.overflowCapacity);
  return {
    number: station.number,
    contractName: station.contract,
    name: station.name,
    address: station.address,
    position: { latitude: station.latitude, longitude: station.longitude },
    banking: station.banking,
    bonus: station.bonus,
    status: state.status,
    lastUpdate: state.lastUpdate,
    connected: state.connected,
    overflow: station.overflow,
    shape: null,
    totalStands: overflowStands ? sum(mainStands, overflowStands) : mainStands,
    mainStands,
    overflowStands,
  };
}

function stands(availabilities: Availabilities, capacity: number): Stands {
  return { availabilities: withFields(availabilities, {}), capacity };
}

function sum(a: Stands, b: Stands): Stands {
  const x = a.availabilities;
  const y = b.availabilities;
  return {
    availabilities: {
      bikes: x.bikes + y.bikes,
      stands: x.stands + y.stands,
      mechanicalBikes: x.mechanicalBikes + y.mechanicalBikes,
      electricalBikes: x.electricalBikes + y.electricalBikes,
      electricalInternalBatteryBikes:
        x.electricalInternalBatteryBikes + y.electricalInternalBatteryBikes,
      electricalRemovableBatteryBikes:
        x.electricalRemovableBatteryBikes + y.electricalRemovableBatteryBikes,
    },
    capacity: a.capacity + b.capacity,
  };
}
