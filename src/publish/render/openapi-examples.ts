// Examples for the OpenAPI document, taken from the published data itself (the fixtures, in the demo).
import type { EndpointName } from "../../routes/routes.js";
import type { Dataset, LiveState } from "../../source/dataset.js";
import { contractStationsTable, rowOf } from "../downloads/tables.js";
import { renderParkingV1 } from "./parking.js";
import { renderStationV1 } from "./v1.js";
import { NEVER_REPORTED, renderContractV3, renderStationV3 } from "./v3.js";

/**
 * The first contract, station and parking of the data: short, real-looking, deterministic. Station
 * examples use the station's static fields only (open, every stand free, never reported), so the
 * document changes with the source data, never at a refresh.
 */
export function openApiExamples(dataset: Dataset): Partial<Record<EndpointName, unknown>> {
  const examples: Partial<Record<EndpointName, unknown>> = {};
  const contracts = dataset.contracts.slice(0, 2).map(renderContractV3);
  examples.contracts = contracts;
  examples.contractsV1 = contracts;
  const station = dataset.stations[0];
  if (station) {
    const state: LiveState = {
      status: "OPEN",
      connected: true,
      lastUpdate: null,
      main: { ...NEVER_REPORTED.main, stands: station.capacity },
      overflow: station.overflowCapacity === null ? null : NEVER_REPORTED.main,
    };
    const v3 = renderStationV3(station, state);
    const v1 = renderStationV1(station, state);
    Object.assign(examples, {
      station: v3,
      stations: [v3],
      contractStations: [v3],
      stationV1: v1,
      stationsV1: [v1],
      contractStationsV1: [v1],
      staticStations: [rowOf(contractStationsTable, station)],
    });
  }
  const parking = dataset.parkings[0];
  if (parking) {
    examples.park = renderParkingV1(parking);
    examples.parks = [renderParkingV1(parking)];
  }
  return examples;
}
