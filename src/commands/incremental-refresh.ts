// The cron refresh's fast path: the previous run's state beside the tree, the new states file, and
// only the stations that changed rendered again. Anything doubtful means null: render everything.

import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_PORTAL } from "../model/portal.js";
import { previousRelease } from "../publish/incremental/previous-release.js";
import {
  REFRESH_STATE_FORMAT,
  type RefreshState,
  refreshStateOf,
} from "../publish/incremental/refresh-state.js";
import { makeRelease, type Release, type ReleaseFile } from "../publish/release.js";
import { renderStationFiles, type StationCache, SURFACES } from "../publish/station-files.js";
import { DEFAULT_REFRESH_SECONDS } from "../routes/max-age.js";
import { fileOf, pathOf } from "../routes/routes.js";
import { assembleDataset, type Dataset } from "../source/dataset.js";
import type { StaticRead } from "../source/read-dataset.js";
import { readStates } from "../source/read-dataset.js";
import { currentRelease, layoutOf, releasePaths } from "../tree/layout.js";
import type { Tree } from "../tree/read-tree.js";
import { readRefreshCache, writeRefreshCache } from "../tree/refresh-cache.js";
import { type Output, reportProblems } from "./output.js";

export interface RefreshInputs {
  out: string;
  state: string;
  baseUrl: string;
  /** staticSourceFingerprint of the source folder, taken before anything is read from it. */
  fingerprint: string;
  generatedAt: Date;
}

/** What the next cron refresh needs of this one, once its release is on disk. */
export interface Made {
  release: Release;
  dataset: Dataset;
  stations: StationCache;
  staticRead: Pick<StaticRead, "source" | "problems">;
}

/** The new release made from the previous run's state, or null when that state cannot be trusted. */
export async function incrementalRelease(
  inputs: RefreshInputs,
  tree: Tree,
  output: Output,
): Promise<Made | null> {
  const manifest = tree.manifest?.files;
  if (!manifest) return null;
  const state = trustedState(tree, inputs);
  if (!state || !staticFilesIntact(tree, state)) return null;
  const allLists = SURFACES.map((surface) => verifiedFile(tree, pathOf(surface.all)));
  if (allLists.some((bytes) => bytes === null)) return null;

  // The portal page is a static answer kept as it is (portal.json is in the source fingerprint).
  const source = {
    contracts: state.contracts,
    stations: state.stations,
    parkings: [],
    portal: DEFAULT_PORTAL,
  };
  const read = await readStates(
    { source, complete: { contracts: true, stations: true } },
    inputs.state,
  );
  reportProblems([...state.staticProblems, ...read.problems], output); // throws on any error
  if (!read.states) throw new Error("readStates returned no states and no error");
  const dataset = assembleDataset(source, read.states);

  const previous = previousRelease(state, dataset, SURFACES, manifest, allLists as Buffer[]);
  if (!previous) return null;
  const files = new Map<string, ReleaseFile>(previous.staticFiles);
  const dynamic = renderStationFiles(dataset, previous.stations, DEFAULT_REFRESH_SECONDS);
  for (const [path, file] of dynamic.files) files.set(path, file);
  // A dynamic answer this path does not render (a surface added since) would be left stale.
  if (Object.keys(manifest).some((path) => !files.has(path))) return null;

  const counts = {
    contracts: dataset.contracts.length,
    stations: dataset.stations.length,
    parkings: state.parkings,
  };
  const contracts = dataset.contracts.map(({ name, parkingApi }) => ({ name, parkingApi }));
  return {
    release: makeRelease(files, counts, inputs.generatedAt, contracts),
    dataset,
    stations: dynamic.cache,
    staticRead: { source, problems: state.staticProblems },
  };
}

/** Leaves this run's state beside the tree it just updated, for the next run. */
export function saveRefreshState(
  made: Made,
  inputs: Pick<RefreshInputs, "out" | "baseUrl" | "fingerprint">,
): void {
  // Another writer may have got there in between: then the state names a release the tree does
  // not hold, and the next refresh ignores it.
  const layout = layoutOf(inputs.out);
  const name = currentRelease(layout);
  if (name === null) return;
  writeRefreshCache(
    releasePaths(layout, name).folder,
    refreshStateOf({
      release: made.release,
      baseUrl: inputs.baseUrl,
      source: inputs.fingerprint,
      staticSource: made.staticRead.source,
      staticProblems: made.staticRead.problems,
      dataset: made.dataset,
      stations: made.stations,
      surfaces: SURFACES.length,
    }),
  );
}

function trustedState(tree: Tree, inputs: RefreshInputs): RefreshState | null {
  const state = readRefreshCache(tree.release.folder) as RefreshState | null;
  if (
    state?.format !== REFRESH_STATE_FORMAT ||
    state.release !== tree.manifest?.release ||
    state.baseUrl !== inputs.baseUrl ||
    state.source !== inputs.fingerprint ||
    state.states.length !== state.stations.length
  )
    return null;
  return state;
}

/** The kept answers must be the manifest's on disk, by the updater's own test (size, change time). */
function staticFilesIntact(tree: Tree, state: RefreshState): boolean {
  const manifest = tree.manifest?.files ?? {};
  return state.staticPaths.every((path) => {
    const stats = lstatSync(join(tree.release.tree, fileOf(path)), { throwIfNoEntry: false });
    return stats?.isFile() && stats.size === manifest[path]?.size && stats.ctimeMs <= tree.sealedAt;
  });
}

/**
 * A file of the tree whose bytes are the manifest's, by the updater's own test (size, change time
 * against the seal), or null. Not by hashing it: a list's ETag is derived from its members' (listFile).
 */
function verifiedFile(tree: Tree, path: string): Buffer | null {
  try {
    const file = join(tree.release.tree, fileOf(path));
    const stats = lstatSync(file);
    const sealed = stats.isFile() && stats.ctimeMs <= tree.sealedAt;
    return sealed && stats.size === tree.manifest?.files[path]?.size ? readFileSync(file) : null;
  } catch {
    return null;
  }
}
