// Renders stations and contracts as the legacy v1 API emitted them (key order included).
import type { ContractV1, StationV1 } from "../../model/api-v1.js";
import type { Contract } from "../../model/contract.js";
import type { Station } from "../../model/station.js";
import type { LiveState } from "../../source/dataset.js";
import { NEVER_REPORTED } from "./v3.js";

/** v3's fields, in the real v1 service's order: `cities` second. */
export function renderContractV1(contract: Contract): ContractV1 {
  return {
    name: contract.name,
    cities: contract.cities,
    commercial_name: contract.commercial_name,
    country_code: contract.country_code,
  };
}

/** v1 knows no stand types: its figures are main + overflow stands, as v3's `totalStands`. */
export function renderStationV1(station: Station, state: LiveState = NEVER_REPORTED): StationV1 {
  const overflow = station.overflowCapacity === null ? null : state.overflow;
  return {
    number: station.number,
    contract_name: station.contract,
    name: station.name,
    address: station.address,
    position: { lat: station.latitude, lng: station.longitude },
    banking: station.banking,
    bonus: station.bonus,
    bike_stands: station.capacity + (station.overflowCapacity ?? 0),
    available_bike_stands: state.main.stands + (overflow?.stands ?? 0),
    available_bikes: state.main.bikes + (overflow?.bikes ?? 0),
    status: state.status,
    // lastUpdate is already whole seconds in UTC, so the milliseconds are exact.
    last_update: state.lastUpdate === null ? null : Date.parse(state.lastUpdate),
  };
}
