// The fixtures' tree as `velodata build` writes it, portal included. Until the GBFS rows are in the
// route table (GBFS_ROUTES), the portal's live feeds are made here from the fixtures' states (GBFS
// v3.0 station_status) and the portal is rendered again to link to them: remove that part then.
import { publish } from "../../../../src/publish/publish.js";
import {
  endpointFile,
  JSON_TYPE,
  makeRelease,
  type ReleaseFile,
  releaseFile,
} from "../../../../src/publish/release.js";
import { buildPortalInput } from "../../../../src/publish/render/portal/build-portal-input.js";
import { GBFS_ROUTES, portalPaths } from "../../../../src/publish/render/portal/portal-paths.js";
import { renderPortal } from "../../../../src/publish/render/portal/render-portal.js";
import { pathOf, ROUTE_LIST } from "../../../../src/routes/routes.js";
import type { Dataset } from "../../../../src/source/dataset.js";
import { stationKey } from "../../../../src/source/dataset.js";
import { writeTree } from "../../../../src/tree/write-tree.js";
import { fixtureDataset, GENERATED_AT } from "../../publish-helpers.js";

/** Whether the route table serves GBFS: then the tree's own feeds are the portal's. */
export const HAS_GBFS_ROUTES = ROUTE_LIST.some((route) => route.name === GBFS_ROUTES.feedV3);

const madeGbfsPaths = (contract: string) => ({
  discovery: `/contracts/${contract}/gbfs/gbfs.json`,
  discoveryV3: `/contracts/${contract}/gbfs/v3/gbfs.json`,
  stationStatus: `/contracts/${contract}/gbfs/v3/station_status.json`,
});

/** GBFS v3.0 station_status of one contract, from the dataset's states. */
export function stationStatus(dataset: Dataset, contract: string): unknown {
  const stations = dataset.stations
    .filter((station) => station.contract === contract)
    .map((station) => {
      const state = dataset.states.get(stationKey(contract, station.number));
      const open = state?.status === "OPEN";
      return {
        station_id: String(station.number),
        num_vehicles_available: (state?.main.bikes ?? 0) + (state?.overflow?.bikes ?? 0),
        num_docks_available: (state?.main.stands ?? 0) + (state?.overflow?.stands ?? 0),
        is_installed: true,
        is_renting: open,
        is_returning: open,
        last_reported: state?.lastUpdate ?? GENERATED_AT.toISOString(),
      };
    });
  return {
    last_updated: "2025-02-08T16:50:00Z",
    ttl: 60,
    version: "3.0",
    data: { stations },
  };
}

const json = (value: unknown) => [Buffer.from(JSON.stringify(value))];

/** Writes the fixtures' tree with the portal showing GBFS and the API reference; returns the dataset used. */
export async function writePortalTree(out: string): Promise<Dataset> {
  const dataset = await fixtureDataset();
  const { release } = await publish(dataset, { generatedAt: GENERATED_AT });
  if (HAS_GBFS_ROUTES) {
    await writeTree(release, out);
    return dataset;
  }
  const files = new Map<string, ReleaseFile>(release.files);
  const add = (path: string, body: Uint8Array[]) =>
    files.set(path, releaseFile(body, JSON_TYPE, "dynamic"));
  for (const contract of dataset.contracts) {
    const paths = madeGbfsPaths(contract.name);
    const feeds = [{ name: "station_status", url: paths.stationStatus }];
    add(paths.stationStatus, json(stationStatus(dataset, contract.name)));
    add(
      paths.discoveryV3,
      json({ last_updated: "2025-02-08T16:50:00Z", ttl: 60, version: "3.0", data: { feeds } }),
    );
    add(
      paths.discovery,
      json({ last_updated: 1739033400, ttl: 60, version: "2.3", data: { en: { feeds } } }),
    );
  }
  const input = buildPortalInput(dataset, files, {
    paths: { ...portalPaths(), gbfs: madeGbfsPaths },
  });
  for (const file of renderPortal(input)) {
    files.set(pathOf({ name: file.endpoint }), endpointFile({ name: file.endpoint }, [file.body]));
  }
  await writeTree(makeRelease(files, release.counts, GENERATED_AT), out);
  return dataset;
}
