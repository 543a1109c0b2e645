// Dataset → Release: every answer of the API and every download, rendered in memory. No disk, no clock.

import { type Endpoint, pathOf } from "../routes/routes.js";
import type { Dataset } from "../source/dataset.js";
import { renderBundle } from "./downloads/bundle.js";
import { csvChunks } from "./downloads/csv.js";
import { contractStationsTable, rowOf } from "./downloads/tables.js";
import { groupByContract } from "./group.js";
import {
  CSV_TYPE,
  endpointFile,
  JSON_TYPE,
  makeRelease,
  type Release,
  type ReleaseFile,
  ZIP_TYPE,
} from "./release.js";
import { encodeJson, jsonList } from "./render/json-body.js";
import { renderParkingV1 } from "./render/parking.js";
import { buildPortalInput } from "./render/portal/build-portal-input.js";
import { renderPortal } from "./render/portal/render-portal.js";
import { renderContractV3 } from "./render/v3.js";
import { renderStationFiles, type StationCache } from "./station-files.js";

export interface PublishOptions {
  generatedAt: Date;
  /** The previous release's station renderings, so that only changed stations are rendered again. */
  cache?: StationCache;
}

export interface Published {
  release: Release;
  /** Hand this to the next publish of the same static data. */
  cache: StationCache;
}

type Files = Map<string, ReleaseFile>;

function put(
  files: Files,
  endpoint: Endpoint,
  body: readonly Uint8Array[],
  contentType = JSON_TYPE,
): void {
  files.set(pathOf(endpoint), endpointFile(endpoint, body, contentType));
}

/** Answers that depend only on static data: contracts, parkings, downloads, the portal. */
export async function publishStatic(dataset: Dataset): Promise<Files> {
  const files: Files = new Map();
  put(files, { name: "contracts" }, [encodeJson(dataset.contracts.map(renderContractV3))]);

  const stationsByContract = groupByContract(dataset.stations);
  const parkingsByContract = groupByContract(dataset.parkings);
  for (const contract of dataset.contracts) {
    const stations = stationsByContract.get(contract.name) ?? [];
    const rows = stations.map((station) => encodeJson(rowOf(contractStationsTable, station)));
    put(files, { name: "staticStations", contract: contract.name, format: "json" }, jsonList(rows));
    put(
      files,
      { name: "staticStations", contract: contract.name, format: "csv" },
      csvChunks(contractStationsTable, stations),
      CSV_TYPE,
    );

    if (!contract.parkingApi) continue;
    const parkings = parkingsByContract.get(contract.name) ?? [];
    const rendered = parkings.map((parking) => encodeJson(renderParkingV1(parking)));
    put(files, { name: "parks", contract: contract.name }, jsonList(rendered));
    parkings.forEach((parking, index) => {
      put(files, { name: "park", contract: contract.name, number: parking.number }, [
        rendered[index] as Uint8Array,
      ]);
    });
  }
  put(files, { name: "bundle" }, await renderBundle(dataset), ZIP_TYPE);
  // Temporary wiring until the route table lists the portal (and GBFS, OpenAPI fill its paths).
  for (const file of renderPortal(buildPortalInput(dataset, files, {}))) {
    put(files, { name: "page", path: file.path }, [file.body], file.contentType);
  }
  return files;
}

/** The whole release. With the static files of a previous release, only the dynamic part is redone. */
export async function publish(
  dataset: Dataset,
  options: PublishOptions,
  staticFiles?: ReadonlyMap<string, ReleaseFile>,
): Promise<Published> {
  const files: Files = new Map(staticFiles ?? (await publishStatic(dataset)));
  const dynamic = renderStationFiles(dataset, options.cache);
  for (const [path, file] of dynamic.files) files.set(path, file);
  // The rule parkingsOnParkingContracts guarantees that every parking is published.
  const counts = {
    contracts: dataset.contracts.length,
    stations: dataset.stations.length,
    parkings: dataset.parkings.length,
  };
  const contracts = dataset.contracts.map(({ name, parkingApi }) => ({ name, parkingApi }));
  return {
    release: makeRelease(files, counts, options.generatedAt, contracts),
    cache: dynamic.cache,
  };
}
