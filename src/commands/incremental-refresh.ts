// The cron refresh's fast path: the previous run's state beside the tree, the new states file, and
// only the stations that changed rendered again. Anything doubtful means null: render everything.

import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_PORTAL } from "../model/portal.js";
import { previousRelease } from "../publish/incremental/previous-release.js";
import {
  type MinuteState,
  REFRESH_STATE_FORMAT,
  type RefreshState,
  refreshStateOf,
  type StaticState,
  splitState,
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
import { REFRESH_STATIC_FILE, readRefreshCache, writeRefreshCache } from "../tree/refresh-cache.js";
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
  /** The checksum of the static part of the state on disk, still true of this release: kept as it is. */
  keptStatic?: string;
}

/** The new release made from the previous run's state, or null when that state cannot be trusted. */
export async function incrementalRelease(
  inputs: RefreshInputs,
  tree: Tree,
  output: Output,
): Promise<Made | null> {
  const manifest = tree.manifest;
  if (!manifest) return null;
  const kept = trustedState(tree, inputs);
  if (!kept || !staticFilesIntact(tree, kept.state)) return null;
  const { state } = kept;
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
  if (manifest.paths.some((path) => !files.has(path))) return null;

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
    keptStatic: kept.checksum,
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
  const { fixed, minute } = splitState(
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
  const folder = releasePaths(layout, name).folder;
  // The static part is written first: a run killed between the two leaves a minute part naming
  // the previous static part, which the next run then finds missing (and renders everything).
  const fixedSum = made.keptStatic ?? writeRefreshCache(folder, fixed, REFRESH_STATIC_FILE);
  if (fixedSum === null) return;
  writeRefreshCache(folder, { ...minute, static: fixedSum } satisfies MinuteState);
}

/** Both parts of the previous run's state, when they go together and with these inputs. */
function trustedState(
  tree: Tree,
  inputs: RefreshInputs,
): { state: RefreshState; checksum: string } | null {
  const minuteRead = readRefreshCache(tree.release.folder);
  const minute = minuteRead?.value as MinuteState | undefined;
  if (minute?.format !== REFRESH_STATE_FORMAT || minute.release !== tree.manifest?.release)
    return null;
  const fixedRead = readRefreshCache(tree.release.folder, REFRESH_STATIC_FILE);
  const fixed = fixedRead?.value as StaticState | undefined;
  if (
    !fixedRead ||
    fixedRead.checksum !== minute.static ||
    fixed?.format !== REFRESH_STATE_FORMAT ||
    fixed.baseUrl !== inputs.baseUrl ||
    fixed.source !== inputs.fingerprint ||
    minute.states.length !== fixed.stations.length
  )
    return null;
  return { state: { ...fixed, ...minute }, checksum: fixedRead.checksum };
}

/** Passes the updater's own trust test: the manifest's size, not changed since it was sealed. */
function intact(tree: Tree, path: string): boolean {
  const stats = lstatSync(join(tree.release.tree, fileOf(path)), { throwIfNoEntry: false });
  const size = tree.manifest?.entry(path)?.size;
  return stats?.isFile() === true && stats.size === size && stats.ctimeMs <= tree.sealedAt;
}

/** The kept answers must be the manifest's on disk: their bytes are not read again. */
const staticFilesIntact = (tree: Tree, state: RefreshState): boolean =>
  state.staticPaths.every((path) => intact(tree, path));

/**
 * A file of the tree whose bytes are the manifest's, by the same test, or null. Not hashed again:
 * a file that passes it was written by the run that sealed the manifest, whole (a killed run
 * leaves the dirty mark, and the tree is then not trusted at all).
 */
function verifiedFile(tree: Tree, path: string): Buffer | null {
  if (!intact(tree, path)) return null;
  try {
    const bytes = readFileSync(join(tree.release.tree, fileOf(path)));
    return bytes.length === tree.manifest?.entry(path)?.size ? bytes : null;
  } catch {
    return null;
  }
}
