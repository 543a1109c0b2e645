// Renders stations as the legacy v1 API emitted them (key order included); v1 contracts are v3's.
import type { StationV1 } from "../../model/api-v1.js";
import type { Station } from "../../model/station.js";
import type { LiveState } from "../../source/dataset.js";
import { NEVER_REPORTED } from "./v3.js";

export { renderContractV3 as renderContractV1 } from "./v3.js";

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
