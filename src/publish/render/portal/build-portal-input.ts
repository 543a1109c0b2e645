// Builds the portal's input from a Dataset and the answers already rendered (for download sizes).
import { DEFAULT_PORTAL } from "../../../model/portal.js";
import { type Endpoint, pathOf } from "../../../routes/routes.js";
import type { Dataset } from "../../../source/dataset.js";
import { licenseGroups } from "../../license-groups.js";
import type { ReleaseFile } from "../../release.js";
import {
  keyedRequest,
  type PortalContract,
  type PortalDownload,
  type PortalEndpoint,
  type PortalGbfs,
  type PortalInput,
  type PortalLicense,
} from "./portal-input.js";

/**
 * The paths of what other parts publish, filled in by the wiring (one line each); what is left
 * out is not shown. GBFS: the discovery files and the v3.0 station_status the page reads live.
 */
export interface PortalPaths {
  gbfsManifest?: string;
  gbfs?: (contract: string) => PortalGbfs;
  openapi?: string;
  /** Further endpoints to list after the specification's (the legacy v1 surface, GBFS feeds). */
  endpoints?: (example: { contract: string; station: number }) => PortalEndpoint[];
}

export interface PortalOptions {
  generatedAt?: Date | null;
  baseUrl?: string | null;
  paths?: PortalPaths;
}

export function buildPortalInput(
  dataset: Dataset,
  answers: ReadonlyMap<string, ReleaseFile>,
  options: PortalOptions,
): PortalInput {
  const settings = dataset.portal ?? DEFAULT_PORTAL;
  const paths = options.paths ?? {};
  const stationCounts = new Map<string, number>();
  for (const { contract } of dataset.stations)
    stationCounts.set(contract, (stationCounts.get(contract) ?? 0) + 1);
  const contracts: PortalContract[] = dataset.contracts.map((contract) => ({
    name: contract.name,
    commercialName: contract.commercial_name,
    countryCode: contract.country_code,
    cities: contract.cities,
    languages: contract.languages ?? [],
    license: contract.license ? licenseOf(contract.license) : null,
    operator: contract.operator
      ? { name: contract.operator.name, url: contract.operator.url ?? null }
      : null,
    stationCount: stationCounts.get(contract.name) ?? 0,
    gbfs: paths.gbfs?.(contract.name) ?? null,
  }));
  return {
    serviceName: settings.serviceName,
    description: settings.description,
    keys: { text: settings.keys.text, url: settings.keys.url ?? null },
    language: settings.language ?? null,
    baseUrl: options.baseUrl ?? null,
    generatedAt: options.generatedAt?.toISOString() ?? null,
    contracts,
    endpoints: endpointsOf(dataset, paths),
    downloads: downloadsOf(contracts, answers),
    gbfsManifest: paths.gbfsManifest ?? null,
    openapi: paths.openapi ?? null,
  };
}

const licenseOf = (license: { id?: string; url?: string }): PortalLicense => ({
  id: license.id ?? null,
  url: license.url ?? null,
});

/** The specification's requests, spelled as it spells them (query forms), on the first contract's data. */
function endpointsOf(dataset: Dataset, paths: PortalPaths): PortalEndpoint[] {
  const first = dataset.contracts[0];
  if (!first) return [];
  const contract = first.name;
  const station = dataset.stations.find((s) => s.contract === contract)?.number ?? 1;
  const endpoints: PortalEndpoint[] = [
    {
      title: "List contracts",
      request: keyedRequest({ name: "contracts" }),
      keyed: true,
      description: "Every contract: name (its identifier), commercial name, country, cities.",
    },
    {
      title: "Stations of a contract",
      request: keyedRequest({ name: "contractStations", contract }),
      keyed: true,
      description:
        "Every station of the contract with its live state. 400 for an unknown contract.",
    },
    {
      title: "One station",
      request: keyedRequest({ name: "station", contract, number: station }),
      keyed: true,
      description:
        "One station by its number within the contract. 404, no body, when it does not exist.",
    },
    {
      title: "All stations",
      request: keyedRequest({ name: "stations" }),
      keyed: true,
      description: "Every station of every contract.",
    },
  ];
  const parking = dataset.parkings[0];
  if (parking) {
    const parks = { name: "parks", contract: parking.contract } as const;
    endpoints.push(
      {
        title: "Parkings of a contract",
        request: keyedRequest(parks),
        keyed: true,
        description: "Bike parkings, for contracts offering the parking API; 400 otherwise.",
      },
      {
        title: "One parking",
        request: keyedRequest({ ...parks, name: "park", number: parking.number }),
        keyed: true,
        description: "One parking by its number. 404 when it does not exist.",
      },
    );
  }
  endpoints.push(...(paths.endpoints?.({ contract, station }) ?? []));
  return endpoints;
}

function downloadsOf(
  contracts: readonly PortalContract[],
  answers: ReadonlyMap<string, ReleaseFile>,
): PortalDownload[] {
  const downloads: PortalDownload[] = [];
  const add = (
    title: string,
    endpoint: Endpoint,
    format: string,
    licenses: PortalLicense[],
    mixed = false,
  ) => {
    const path = pathOf(endpoint);
    const file = answers.get(path);
    if (file) downloads.push({ title, path, bytes: file.size, format, licenses, mixed });
  };
  // As the bundle's data package says: one licence only when every contract states the same.
  const groups = licenseGroups(contracts);
  const only = groups.length === 1 ? groups[0]?.license : null;
  add(
    "Every contract, station and parking (JSON, CSV, data package)",
    { name: "bundle" },
    "ZIP",
    only ? [only] : [],
    groups.length > 1,
  );
  for (const contract of contracts) {
    const licenses = contract.license ? [contract.license] : [];
    const title = `Stations of ${contract.commercialName}`;
    add(title, { name: "staticStations", contract: contract.name }, "JSON", licenses);
    add(title, { name: "staticStationsCsv", contract: contract.name }, "CSV", licenses);
  }
  return downloads;
}
