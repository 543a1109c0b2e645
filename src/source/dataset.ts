// The validated, normalised data that publishing works from: what a Release is made of.
import type { Availabilities } from "../model/api.js";
import type { Contract } from "../model/contract.js";
import type { Parking } from "../model/parking.js";
import type { PortalSettings } from "../model/portal.js";
import type { Station } from "../model/station.js";
import type { StandsState, StationState } from "../model/station-state.js";
import { withFields } from "../with-fields.js";
import type { StaticSource } from "./load-source.js";
import { contractKey } from "./rules/records.js";
import { stationKey, toUtcSeconds } from "./rules/states.js";

/** A station's live state, with derived totals filled in and `lastUpdate` in published form. */
export interface LiveState {
  status: "OPEN" | "CLOSED";
  connected: boolean;
  lastUpdate: string | null;
  main: Availabilities;
  overflow: Availabilities | null;
}

export interface Dataset {
  contracts: readonly Contract[];
  /** In source order; `contract` is the contract's own spelling of its name. */
  stations: readonly Station[];
  parkings: readonly Parking[];
  /** By `stationKey(contract, number)`; a station without an entry never reported. */
  states: ReadonlyMap<string, LiveState>;
  /** The operator's words on the portal page; the defaults when left out. */
  portal?: PortalSettings;
  /**
   * When the publisher knew these states: the states file's modification time (statesFileTime),
   * GBFS station_status's `last_updated`. Absent (no states file, tests): each contract's newest
   * report stands in for it.
   */
  statesAt?: Date;
}

export { stationKey };

/** Builds a Dataset from records that passed every rule (it does not check them again). */
export function assembleDataset(
  source: StaticSource,
  states: ReadonlyMap<string, LiveState>,
  statesAt?: Date,
): Dataset {
  const names = new Map(source.contracts.map(({ value }) => [contractKey(value.name), value.name]));
  const canonical = <T extends { contract: string }>(record: T): T => {
    const name = names.get(contractKey(record.contract)) ?? record.contract;
    return name === record.contract
      ? record
      : withFields<T>(record, { contract: name } as Partial<T>);
  };
  return {
    contracts: source.contracts.map(({ value }) => value),
    stations: source.stations.map(({ value }) => canonical(value)),
    parkings: source.parkings.map(({ value }) => canonical(value)),
    states,
    portal: source.portal,
    ...(statesAt ? { statesAt } : {}),
  };
}

export function toLiveState(state: StationState): LiveState {
  return {
    status: state.status,
    connected: state.connected,
    lastUpdate: state.lastUpdate === null ? null : (toUtcSeconds(state.lastUpdate) ?? null),
    main: availabilities(state.mainStands),
    overflow: state.overflowStands ? availabilities(state.overflowStands) : null,
  };
}

function availabilities(stands: StandsState): Availabilities {
  const electricalBikes =
    stands.electricalBikes ??
    stands.electricalInternalBatteryBikes + stands.electricalRemovableBatteryBikes;
  return {
    bikes: stands.bikes ?? stands.mechanicalBikes + electricalBikes,
    stands: stands.stands,
    mechanicalBikes: stands.mechanicalBikes,
    electricalBikes,
    electricalInternalBatteryBikes: stands.electricalInternalBatteryBikes,
    electricalRemovableBatteryBikes: stands.electricalRemovableBatteryBikes,
  };
}
