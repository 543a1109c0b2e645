// Examples for the OpenAPI document, taken from the published data itself (the fixtures, in the demo).
import type { EndpointName } from "../../routes/routes.js";
import type { Dataset, LiveState } from "../../source/dataset.js";
import { contractStationsTable, rowOf } from "../downloads/tables.js";
import { renderParkingV1 } from "./parking.js";
import { renderContractV1, renderStationV1 } from "./v1.js";
import { NEVER_REPORTED, renderContractV3, renderStationV3 } from "./v3.js";

/**
 * When the example station reported: a fixed instant, so that the document changes with the source
 * data, never at a refresh. (null would say "never reported", which the API says only of a
 * CLOSED, disconnected station.)
 */
const EXAMPLE_REPORTED_AT = "2025-06-02T07:30:00Z";

/**
 * The first contract, station and parking of the data: short, real-looking, deterministic. Station
 * examples use the station's static fields only (open, every stand free, reported at a fixed
 * instant), so the document changes with the source data, never at a refresh.
 */
export function openApiExamples(dataset: Dataset): Partial<Record<EndpointName, unknown>> {
  const examples: Partial<Record<EndpointName, unknown>> = {};
  examples.contracts = dataset.contracts.slice(0, 2).map(renderContractV3);
  examples.contractsV1 = dataset.contracts.slice(0, 2).map(renderContractV1);
  const station = dataset.stations[0];
  if (station) {
    const state: LiveState = {
      status: "OPEN",
      connected: true,
      lastUpdate: EXAMPLE_REPORTED_AT,
      main: { ...NEVER_REPORTED.main, stands: station.capacity },
      overflow:
        station.overflowCapacity === null
          ? null
          : { ...NEVER_REPORTED.main, stands: station.overflowCapacity },
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
