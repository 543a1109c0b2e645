// Dataset → Release: every answer of the API and every download, rendered in memory. No disk, no clock.

import { DEFAULT_REFRESH_SECONDS } from "../routes/max-age.js";
import { type Endpoint, pathOf } from "../routes/routes.js";
import type { Dataset } from "../source/dataset.js";
import { DEFAULT_BASE_URL } from "./default-base-url.js";
import { renderBundle } from "./downloads/bundle.js";
import { csvChunks } from "./downloads/csv.js";
import { jsonRows } from "./downloads/json-rows.js";
import { contractStationsTable, rowOf } from "./downloads/tables.js";
import { type Encode, encodedTogether } from "./encoded-together.js";
import { gbfsStaticFiles, gbfsUrls } from "./gbfs-files.js";
import { groupByContract } from "./group.js";
import { licenseGroups } from "./license-groups.js";
import { endpointFile, makeRelease, type Release, type ReleaseFile } from "./release.js";
import { encodeJson, jsonList } from "./render/json-body.js";
import { renderOpenApi } from "./render/openapi.js";
import { openApiExamples } from "./render/openapi-examples.js";
import { renderParkingV1 } from "./render/parking.js";
import { buildPortalInput } from "./render/portal/build-portal-input.js";
import { portalPaths } from "./render/portal/portal-paths.js";
import { renderPortal } from "./render/portal/render-portal.js";
import { renderContractV1 } from "./render/v1.js";
import { renderContractV3 } from "./render/v3.js";
import {
  renderStationFiles,
  renderStationFilesInSteps,
  type StationCache,
} from "./station-files.js";

export { DEFAULT_BASE_URL };

export interface PublishOptions {
  generatedAt: Date;
  /** The public base URL of the API (OpenAPI `servers`, GBFS URLs); default DEFAULT_BASE_URL. */
  baseUrl?: string;
  /**
   * The base URL the portal's requests and API reference name; null: the page's own host. By
   * default `baseUrl`, unless it is DEFAULT_BASE_URL, a stand-in (the page's host is then surer).
   */
  portalBaseUrl?: string | null;
  /**
   * When the static source last changed (`staticSourceTimes`, read by the command): the
   * `last_updated` of the static GBFS feeds, so that they move only with the source. Default generatedAt.
   */
  staticUpdatedAt?: Date;
  /**
   * When the static source's data last changed, parkings included (`staticSourceTimes`): the
   * bundle's data package and the portal say it. Default staticUpdatedAt; neither: no date.
   */
  dataUpdatedAt?: Date;
  /** Seconds between refreshes: the `ttl` of GBFS station_status. Default 60. */
  refreshSeconds?: number;
  /** The previous release's station renderings, so that only changed stations are rendered again. */
  cache?: StationCache;
  /**
   * Given the station answers (each station, the lists, GBFS station_status) a contract at a time
   * as soon as they are rendered, before the static answers: `build` writes them from another
   * thread meanwhile.
   */
  onStationFiles?: (files: Iterable<readonly [string, ReleaseFile]>) => void;
  /**
   * How the answers are encoded: by default one buffer per station (and per chunk of a big static
   * answer), as a server that replaces them a few at a time needs; a process that exits once it
   * has written them passes encodedInChunks().
   */
  encode?: Encode;
  /**
   * Awaited between two contracts, of the station answers and of the static ones: a server that
   * publishes an edit of its static source answers requests meanwhile. The station answers are then
   * encoded one buffer per station, and not handed to `onStationFiles`.
   */
  pause?: () => Promise<void>;
}

export interface Published {
  release: Release;
  /** Hand this to the next publish of the same static data. */
  cache: StationCache;
}

type Files = Map<string, ReleaseFile>;

function put(files: Files, endpoint: Endpoint, body: readonly Uint8Array[]): void {
  files.set(pathOf(endpoint), endpointFile(endpoint, body));
}

/** Answers that change only with the source data: contracts, parkings, downloads, OpenAPI, portal. */
export async function publishStatic(dataset: Dataset, options: PublishOptions): Promise<Files> {
  // Zipped by another thread while the rest renders (see zip.ts); the portal needs its size.
  const dataUpdatedAt = options.dataUpdatedAt ?? options.staticUpdatedAt;
  const homepage = portalBaseUrl(options);
  const bundle = renderBundle(dataset, dataUpdatedAt, {
    ...(dataset.portal ? { serviceName: dataset.portal.serviceName } : {}),
    // The portal's page, at the tree's root.
    ...(homepage === null ? {} : { homepage: `${homepage.replace(/\/+$/, "")}/` }),
  });
  bundle.catch(() => {}); // awaited below
  // The answers kept in the release are encoded as the caller asks; the bundle's tables are not
  // (they are copied for the zip, then let go).
  const encode = options.encode ?? encodedTogether;
  const files: Files = new Map();
  put(files, { name: "contracts" }, [encodeJson(dataset.contracts.map(renderContractV3))]);
  put(files, { name: "contractsV1" }, [encodeJson(dataset.contracts.map(renderContractV1))]);
  put(files, { name: "openapi" }, [encodeJson(openApiDocument(dataset, options))]);

  const stationsByContract = groupByContract(dataset.stations);
  const parkingsByContract = groupByContract(dataset.parkings);
  for (const contract of dataset.contracts) {
    await options.pause?.();
    const stations = stationsByContract.get(contract.name) ?? [];
    const rows = jsonRows(stations, (station) => rowOf(contractStationsTable, station), encode);
    put(files, { name: "staticStations", contract: contract.name }, rows);
    put(
      files,
      { name: "staticStationsCsv", contract: contract.name },
      csvChunks(contractStationsTable, stations, encode),
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
  put(files, { name: "bundle" }, await bundle);
  for (const [path, file] of gbfsFiles(dataset, options)) files.set(path, file);
  // Last: the portal shows the sizes of the downloads above and links to what the table lists.
  // Dated by the source's last change, as the bundle is: a page that moved at every refresh would
  // defeat its ETag.
  const portal = {
    paths: portalPaths(),
    baseUrl: homepage,
    generatedAt: dataUpdatedAt ?? null,
  };
  for (const file of renderPortal(buildPortalInput(dataset, files, portal))) {
    put(files, { name: file.endpoint }, [file.body]);
  }
  return files;
}

function portalBaseUrl(options: PublishOptions): string | null {
  if (options.portalBaseUrl !== undefined) return options.portalBaseUrl;
  return options.baseUrl === undefined || options.baseUrl === DEFAULT_BASE_URL
    ? null
    : options.baseUrl;
}

/**
 * The static GBFS files: they name the base URL, so withBaseUrl renders them again too; and the
 * refresh period, their ttl as station_status's.
 */
function gbfsFiles(dataset: Dataset, options: PublishOptions): Files {
  const urls = gbfsUrls(options.baseUrl ?? DEFAULT_BASE_URL);
  const updatedAt = options.staticUpdatedAt ?? options.generatedAt;
  const ttl = options.refreshSeconds ?? DEFAULT_REFRESH_SECONDS;
  return gbfsStaticFiles(dataset, urls, updatedAt, ttl, options.encode);
}

/** The same release with its OpenAPI document and GBFS files naming another base URL. */
export function withBaseUrl(
  release: Release,
  dataset: Dataset,
  options: Omit<PublishOptions, "generatedAt" | "cache"> & { baseUrl: string },
): Release {
  const files: Files = new Map(release.files);
  const at = {
    ...options,
    generatedAt: release.generatedAt,
    refreshSeconds: release.refreshSeconds,
  };
  put(files, { name: "openapi" }, [encodeJson(openApiDocument(dataset, at))]);
  for (const [path, file] of gbfsFiles(dataset, at)) files.set(path, file);
  const contracts = [...release.contracts.values()];
  const { counts, generatedAt, refreshSeconds } = release;
  return makeRelease(files, counts, generatedAt, contracts, options.baseUrl, refreshSeconds);
}

export function openApiDocument(dataset: Dataset, options: PublishOptions): object {
  return renderOpenApi({
    baseUrl: options.baseUrl ?? DEFAULT_BASE_URL,
    examples: openApiExamples(dataset),
    ...(dataset.portal ? { title: dataset.portal.serviceName } : {}),
    ...(dataset.portal?.keys.url ? { keysUrl: dataset.portal.keys.url } : {}),
    licenses: licenseGroups(dataset.contracts),
    parameterExamples: {
      ...(dataset.stations[0] ? { station: dataset.stations[0] } : {}),
      ...(dataset.parkings[0] ? { park: dataset.parkings[0] } : {}),
    },
  });
}

/**
 * The whole release. With the static files of a previous release, only the dynamic part is redone;
 * they may also be a promise of them, rendered meanwhile by another thread (publishStaticOffThread).
 */
export async function publish(
  dataset: Dataset,
  options: PublishOptions,
  staticFiles?: ReadonlyMap<string, ReleaseFile> | Promise<ReadonlyMap<string, ReleaseFile>>,
): Promise<Published> {
  const refreshSeconds = options.refreshSeconds ?? DEFAULT_REFRESH_SECONDS;
  const dynamic = options.pause
    ? await renderStationFilesInSteps(dataset, options.cache, refreshSeconds, options.pause)
    : renderStationFiles(
        dataset,
        options.cache,
        refreshSeconds,
        options.encode,
        options.onStationFiles,
      );
  // The static answers first in the release, as they always were.
  const files: Files = new Map(await (staticFiles ?? publishStatic(dataset, options)));
  for (let at = 0; at < dynamic.paths.length; at++)
    files.set(dynamic.paths[at] as string, dynamic.files[at] as ReleaseFile);
  await options.pause?.(); // the release's id, next, hashes every answer's tag
  // The rule parkingsOnParkingContracts guarantees that every parking is published.
  const counts = {
    contracts: dataset.contracts.length,
    stations: dataset.stations.length,
    parkings: dataset.parkings.length,
  };
  const contracts = dataset.contracts.map(({ name, parkingApi }) => ({ name, parkingApi }));
  return {
    release: makeRelease(
      files,
      counts,
      options.generatedAt,
      contracts,
      options.baseUrl ?? DEFAULT_BASE_URL,
      refreshSeconds,
    ),
    cache: dynamic.cache,
  };
}
