// The cron refresh's fast path: the previous run's state beside the tree, the new states file, and
// only the stations that changed rendered again. Anything doubtful means null: render everything.

import { closeSync, openSync, read as readCallback, readSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { UserError } from "../errors.js";
import { DEFAULT_PORTAL } from "../model/portal.js";
import type { Station } from "../model/station.js";
import { SMALL_BODY } from "../publish/compress.js";
import {
  changedRecordsOfBytes,
  stationsOfRecords,
} from "../publish/incremental/changed-records.js";
import { ChangedVariants, piecesPay } from "../publish/incremental/changed-variants.js";
import {
  type MinuteState,
  pathOfStatus,
  REFRESH_STATE_FORMAT,
  type RefreshState,
  refreshStateOf,
  restoreStatic,
  type StoredStaticState,
  splitState,
  storeStatic,
} from "../publish/incremental/refresh-state.js";
import {
  datasetInput,
  type PublishedBytes,
  type SplicedStations,
  type SpliceInput,
  spliceStations,
} from "../publish/incremental/splice-stations.js";
import { stateAt, wellFormedColumns } from "../publish/incremental/state-columns.js";
import { allRecords } from "../publish/incremental/station-records.js";
import type { Release, ReleaseFile } from "../publish/release.js";
import { releaseIdOf } from "../publish/release-id.js";
import { GBFS_VERSIONS } from "../publish/render/gbfs/feed.js";
import { SmallBodies } from "../publish/small-bodies.js";
import { type StationCache, SURFACES } from "../publish/station-files.js";
import { fileOf, pathOf } from "../routes/routes.js";
import { type FeedHealth, feedHealthOfColumns } from "../serve/feed-health.js";
import { assembleDataset, type Dataset, type LiveState, stationKey } from "../source/dataset.js";
import {
  type KeptState,
  keptDisconnected,
  keptSaid,
  unfitKeptStates,
} from "../source/kept-states.js";
import { NOTHING_UNREAD, type StaticSource } from "../source/load-source.js";
import { removedStationsSaid, tooManyMissing, tooManyRemoved } from "../source/missing-stations.js";
import { error, type Problem, type RecordRef, type Sourced } from "../source/problems.js";
import type { StatesLeftOut, StaticRead } from "../source/read-dataset.js";
import { readStates, saidLeftOut } from "../source/read-dataset.js";
import type { SourceSeen } from "../source/source-fingerprint.js";
import { statesTimeOf } from "../source/source-time.js";
import { recordSizes } from "../source/states-bytes.js";
import type { Step, StepTimes } from "../step-times.js";
import {
  bytesIfUnchanged,
  dropKeptStates,
  dropOtherKeptStates,
  keepStates,
  readKeptBytes,
  type StatesSeen,
  statesSeen,
} from "../tree/accepted-states.js";
import { type CacheSeen, cacheSeen } from "../tree/cache-seen.js";
import { currentRelease, layoutOf, releasePaths } from "../tree/layout.js";
import { type Manifest, patchedManifest } from "../tree/manifest.js";
import type { Tree } from "../tree/read-tree.js";
import {
  REFRESH_STATIC_FILE,
  readRefreshCache,
  type StagedCache,
  stageRefreshCache,
  writeRefreshCache,
} from "../tree/refresh-cache.js";
import { trustedOnDisk } from "../tree/trust-test.js";
import {
  type Finished,
  type UpdateOptions,
  type UpdateStats,
  updateTreeChanges,
} from "../tree/update-tree.js";
import { withFields } from "../with-fields.js";
import { type Output, reportProblems } from "./output.js";
import { STATIC_CHANGE_REFUSED } from "./static-refused.js";
import { saidTreeLeft, TREE_LEFT } from "./tree-left.js";

export interface RefreshInputs {
  out: string;
  state: string;
  baseUrl: string;
  /** Seconds between the tree's refreshes: the ttl of its GBFS station_status feeds. */
  refreshSeconds: number;
  /** staticSourceFingerprint of the source folder, taken before anything is read from it. */
  fingerprint: string;
  /** The static files as that fingerprint saw them: for the next run to skip reading them. */
  sourceSeen: SourceSeen;
  generatedAt: Date;
  /** The share of the stations reported before that the states file may leave out (0 to 1). */
  maxMissingShare: number;
  /** The share of the stations published that a changed static source may no longer list (0 to 1). */
  maxRemovedShare: number;
}

/** What a refresh is told as it goes: where its time goes, and what runs its moves into the tree. */
export interface RefreshRun {
  steps?: StepTimes;
  /** See UpdateOptions.whileMoving. */
  whileMoving?: UpdateOptions["whileMoving"];
}

/** What the next cron refresh needs of this one, once its release is on disk. */
export interface Made {
  release: Release;
  dataset: Dataset;
  stations: StationCache;
  staticRead: Pick<StaticRead, "source">;
}

/** What a fast refresh did, for its summary line. */
export interface FastRefresh {
  stats: UpdateStats;
  /** Files of the release (every path of the tree). */
  total: number;
  release: string;
  /** How fresh the stations' states are. */
  feed: FeedHealth;
  /**
   * Whether the states file just read reports the station at this position in the previous
   * run's state (kept or gone, it does not).
   */
  reported: (index: number) => boolean;
}

/**
 * The tree brought up to the new states from the previous run's state, rendering only what
 * changed; null when that state or the tree cannot be trusted (the caller renders everything).
 * `trust`: the tree's untrustedFiles, under way since before that state was read. Throws on any
 * error in the states file: the tree stays as it was. `run` is told where the time went, and runs
 * the moves into the tree.
 */
export async function incrementalRefresh(
  inputs: RefreshInputs,
  tree: Tree,
  previous: PreviousState | null,
  trust: Promise<string[] | null>,
  output: Output,
  { steps, whileMoving }: RefreshRun = {},
): Promise<FastRefresh | null> {
  const manifest = tree.manifest;
  if (!manifest) return null;
  const kept = previous && madeWith(previous, inputs) ? previous : null;
  if (!kept || kept.state.pathCount !== manifest.paths.length) return null;
  const { state } = kept;
  // Read in the thread pool while this thread reads the states file.
  const reading = publishedBytes(tree, state);
  reading.catch(() => {}); // awaited below, after the states are read

  const states = await newStates(state, kept.accepted, tree.release.folder, inputs, output).catch(
    saidTreeLeft,
  );
  const published = await reading;
  if (!published) return null;
  steps?.ended("read");
  // Variants are made in the thread pool as each list is made, and while the main thread stages
  // the other changed files; the small ones by a worker thread. Contracts' lists are made into
  // pieces where they are big enough for that to pay.
  const listBytes = Math.max(0, ...published.allLists.map((list) => list.length));
  const small = new SmallBodies();
  const pieces = piecesPay(listBytes, state.contracts.length);
  const variants = new ChangedVariants({ pieces, small: small.compress });
  const spliced = spliceStations(state, states.input, published, SURFACES, inputs.refreshSeconds, {
    onList: (path, file, kind) => variants.add(path, file, kind),
    ...(pieces ? { onUnchangedList: (path, file) => variants.addPieces(path, file) } : {}),
  });
  if (!spliced) {
    void small.stop();
    return null;
  }
  const compressing = variants.finish(spliced.lists);
  compressing.catch(() => {}); // awaited in `finished`, unless the trust test failed first
  void compressing.finally(() => small.stop()).catch(() => {});
  // The changed answers' ETags at their places among the manifest's paths (the stations' places
  // from the splice, the lists' searched), for the id: no lookup by path for the 200,000 others.
  // An answer rendered again with the bytes the tree has (a station's v1 answer when only
  // `connected` changed) is left as it is, file and siblings.
  const tags: (string | undefined)[] = new Array(manifest.paths.length);
  const changed = new Map<string, ReleaseFile>();
  for (const [path, file] of spliced.changed) {
    const at = manifest.positionOf(path, spliced.positions.get(path));
    if (at < 0) return null;
    if (manifest.etagAt(at) === file.etag) continue;
    tags[at] = file.etag;
    changed.set(path, file);
  }
  const id = releaseIdOf(manifest.paths, (at) => tags[at] ?? manifest.etagAt(at));
  steps?.ended("render");
  // The next run's state, written beside its place while the variants are made (renamed in once
  // the tree holds this release): the states file it names kept first.
  const folder = tree.release.folder;
  let minute: StagedCache | null = null;
  let keptFile: string | undefined;
  // Set once the update failed (its lock refused, a full disk): what is still being made for the
  // next run is then not staged, since nothing would remove it.
  let abandoned = false;
  // When the trust test's answer came: a wait for it after the staging is validation's, not the
  // variants'.
  let trustedAt: number | undefined;
  const finished = (async (): Promise<Finished | null> => {
    const untrusted = await trust;
    trustedAt = steps?.now();
    if (abandoned || untrusted === null || untrusted.some((path) => !changed.has(path)))
      return null;
    const accepted = states.keep && keptStates(folder, states.keep);
    keptFile = accepted ? accepted.file : undefined;
    minute = stageRefreshCache(folder, {
      format: REFRESH_STATE_FORMAT,
      release: id,
      ...spliced.minute,
      sourceSeen: inputs.sourceSeen,
      static: kept.checksum,
      staticSeen: kept.staticSeen,
      ...(accepted ? { accepted } : {}),
    } satisfies MinuteState);
    const compressed = new Map(await compressing);
    const files = [...changed].map(([path, file]): [string, ReleaseFile] => [
      path,
      compressed.get(path) ?? file,
    ]);
    const patched = patchedManifest(
      manifest,
      { id, generatedAt: inputs.generatedAt },
      files.map(([path, file]) => ({ path, file })),
    );
    return patched && { files, manifest: patched };
  })();
  // Without the release on disk, what was made for the next run goes (the last state stays).
  const unused = () => {
    abandoned = true;
    (minute as StagedCache | null)?.discard();
    if (keptFile) dropKeptStates(folder, keptFile);
  };
  const updateSteps = steps && {
    ended(step: Step) {
      if (step === "compress" && trustedAt !== undefined) steps.endedAt("read", trustedAt);
      steps.ended(step);
    },
  };
  const updated = await updateTreeChanges(tree, inputs.out, changed, finished, {
    ...(updateSteps ? { steps: updateSteps } : {}),
    ...(whileMoving ? { whileMoving } : {}),
  }).catch((cause) => {
    unused();
    throw cause;
  });
  // The static part on disk is still this release's: only the minute part is written.
  if (updated && (minute as StagedCache | null)?.commit()) dropOtherKeptStates(folder, keptFile);
  else unused();
  if (!updated) return null;
  const written = [...changed.values()];
  const stats: UpdateStats = {
    files: written.length,
    bytes: written.reduce((total, file) => total + file.size, 0),
    repaired: 0,
    removed: 0,
    verified: false,
  };
  const feed = feedHealthOfColumns(spliced.minute.states, states.kept);
  // The static source unchanged, each station keeps its position.
  const status = spliced.minute.states.status;
  const reported = (index: number) => (status[index] ?? -1) >= 0 && !states.kept?.has(index);
  return { stats, total: manifest.paths.length, release: id, feed, reported };
}

/** The stations' new states, and what to keep of the states file for the next refresh. */
interface NewStates {
  input: SpliceInput;
  /** The stations kept at their last state (positions): not in the file, as /status counts them. */
  kept?: ReadonlySet<number>;
  /** The file's bytes and each record's station and size, when they can be kept. */
  keep?: KeptRecords;
}

interface KeptRecords {
  bytes: Buffer;
  stations: ArrayLike<number>;
  /** Each record's size in bytes; undefined when not found (the next read then finds them). */
  sizes?: ArrayLike<number>;
}

/**
 * The states file read against the last accepted one (only the records that changed parsed and
 * checked), or else whole, as a full read does. Throws on any error in it: the tree stays as it was.
 */
async function newStates(
  state: RefreshState,
  accepted: MinuteState["accepted"],
  folder: string,
  inputs: Pick<RefreshInputs, "state" | "maxMissingShare">,
  output: Output,
): Promise<NewStates> {
  const path = inputs.state;
  const seen = statesSeen(path);
  const statesAt = seen ? statesTimeOf(seen.mtimeMs) : undefined;
  const bytes = bytesIfUnchanged(seen);
  const before = accepted && bytes && readKeptBytes(folder, accepted);
  if (accepted && bytes && before) {
    // A state written by a run that did not keep the sizes: found again, by the brackets.
    const sizes = keptSizes(accepted) ?? recordSizes(before);
    const read =
      sizes &&
      changedRecordsOfBytes(
        bytes,
        { bytes: before, sizes, stations: accepted.stations },
        state,
        path,
      );
    if (read) {
      return {
        input: {
          contracts: state.contracts.map(({ value }) => value),
          stations: kept(state),
          candidates: read.lives,
          ...(statesAt ? { statesAt } : {}),
        },
        keep: { bytes, stations: accepted.stations, sizes: read.sizes },
      };
    }
  }
  // The portal page is a static answer kept as it is (portal.json is in the source fingerprint).
  const source = {
    contracts: state.contracts,
    stations: allRecords(state.stations),
    parkings: [],
    portal: DEFAULT_PORTAL,
  };
  // A minute's read: records in error left out, said (the file itself in error refused).
  const read = await readStates({ source, unread: NOTHING_UNREAD }, path, undefined, {
    leaveOut: true,
  });
  // Against the stations the release has a state for, whether or not the file before had them all
  // (a feed that always misses one or two must still be stopped from emptying the network). Said
  // before the warnings: theirs ("published as CLOSED") would describe a publish that does not happen.
  // A file with records in error is refused for them, and for its missing share too, in one run:
  // the share counts the stations of those records as present.
  const present = read.states ?? read.reported;
  const refused = present && missingShareRefusal(state, present, inputs, undefined, read);
  if (refused && read.states) throw new UserError(`${inputs.state} ${refused}; ${TREE_LEFT}`);
  const missing = refused ? [error({ file: path }, undefined, refused)] : [];
  // Only the states': the static source's warnings were said when it was read (by the build, or the
  // refresh that found it changed), not again each minute, where cron would mail them every time.
  const last = read.states && lastStatesKept(state, source, read.states);
  const problems = keptSaid(
    [...read.problems, ...(read.leftOut ?? []).map((problem) => saidLeftOut(problem)), ...missing],
    last ? last.at : new Set(),
    last?.unfit,
  );
  reportProblems(problems, output, TREE_LEFT); // throws on any error
  if (!read.states || !last) throw new Error("readStates returned no states and no error");
  const dataset = assembleDataset(source, last.states, statesAt);
  // What was read is what was kept only if the file did not change meanwhile: its own records.
  const stations = stationsOfRecords(dataset.stations, read.states);
  const same = bytes && bytesIfUnchanged(seen);
  return {
    input: datasetInput(dataset),
    kept: last.positions,
    ...(stations && same ? { keep: { bytes: same, stations } } : {}),
  };
}

/** The new states with the stations kept at their last state, and which those are. */
export interface LastStatesKept {
  /** The file's states, and each kept station's last one, marked disconnected. */
  states: ReadonlyMap<string, LiveState>;
  /** The kept stations' static records' places, for their warnings (keptSaid). */
  at: ReadonlySet<RecordRef>;
  /** Their positions among the stations of the release `state` describes. */
  positions: ReadonlySet<number>;
  /** The last states not kept, which no longer fit their stations, by their places (keptSaid). */
  unfit: ReadonlyMap<RecordRef, Problem>;
}

/**
 * Each of `source`'s stations that `states` (the file's) leaves out but that has a state in the
 * release `state` describes keeps that state, marked disconnected (see kept-states.ts), unless it
 * no longer fits the station as `source` describes it (unfitKeptStates): the station is then
 * published without one, as for a state in error in the file.
 */
export function lastStatesKept(
  state: RefreshState,
  source: Pick<StaticSource, "contracts" | "stations">,
  states: ReadonlyMap<string, LiveState>,
): LastStatesKept {
  const left = new Map<string, Sourced<Station>>();
  for (const station of source.stations) {
    const { value } = station;
    const key = stationKey(value.contract, value.number);
    if (!states.has(key)) left.set(key, station);
  }
  const at = new Set<RecordRef>();
  const positions = new Set<number>();
  if (left.size === 0) return { states, at, positions, unfit: new Map() };
  const last: (KeptState & { key: string; index: number })[] = [];
  for (const [index, key] of publishedStations(state)) {
    const station = left.get(key);
    const published = station && stateAt(state.states, index);
    if (!station || !published) continue; // reported, or never: nothing to keep
    last.push({ key, index, station, state: published });
  }
  const unfit = unfitKeptStates(source.contracts, last);
  const withKept = new Map(states);
  for (const { key, index, station, state: published } of last) {
    if (unfit.has(station.at)) continue;
    withKept.set(key, keptDisconnected(published));
    at.add(station.at);
    positions.add(index);
  }
  return { states: positions.size > 0 ? withKept : states, at, positions, unfit };
}

/**
 * Throws when `states` (by stationKey) leaves out more of the stations with a state in the release
 * `state` describes than --max-missing allows. With `listed` (the keys of the stations the static
 * source now has), a station no longer listed counts as gone, not missing: the source says it left.
 */
export function refuseTooManyMissing(
  state: RefreshState,
  states: ReadonlyMap<string, unknown>,
  inputs: Pick<RefreshInputs, "state" | "maxMissingShare">,
  listed?: ReadonlySet<string>,
  leftOut?: StatesLeftOut,
): void {
  const refused = missingShareRefusal(state, states, inputs, listed, leftOut);
  if (refused) throw new UserError(`${inputs.state} ${refused}; ${TREE_LEFT}`);
}

/**
 * Why refuseTooManyMissing refuses, or null; `states` holds the stations the file reports, and
 * `leftOut` says its states in error. Those the file has no record of are named, the stations of
 * its states in error said apart: the missing are kept as keys, said only to refuse (each minute
 * at 100,000 stations, a few are missing).
 */
function missingShareRefusal(
  state: RefreshState,
  states: { has(key: string): boolean },
  inputs: Pick<RefreshInputs, "maxMissingShare">,
  listed?: ReadonlySet<string>,
  { leftOut, leftOutStations }: StatesLeftOut = {},
): string | null {
  let had = 0;
  const missing: [index: number, key: string][] = [];
  for (const station of publishedStations(state)) {
    const [index, key] = station;
    if (state.states.status[index] === -1) continue; // no state then either
    if (listed && !listed.has(key)) continue;
    had++;
    if (!states.has(key)) missing.push(station);
  }
  const unreported = () =>
    missing.flatMap(([index, key]) =>
      leftOutStations?.has(key) ? [] : [stationNamed(state, index)],
    );
  return tooManyMissing(missing.length, had, inputs.maxMissingShare, { unreported, leftOut });
}

/**
 * Throws when a changed static source no longer lists more of the stations the release `state`
 * describes than --max-removed allows (`listed`: the keys of the stations it now has): a --source
 * mistyped in a crontab would otherwise replace the whole network with another folder's, said by
 * nothing but a count of removed files. A network that really shrank is published by a build.
 */
export function refuseTooManyRemoved(
  state: RefreshState,
  listed: ReadonlySet<string>,
  source: string,
  maxRemovedShare: number,
): void {
  let had = 0;
  let removed = 0;
  for (const [, key] of publishedStations(state)) {
    had++;
    if (!listed.has(key)) removed++;
  }
  const refused = tooManyRemoved(source, removed, had, maxRemovedShare);
  if (!refused) return;
  throw new StaticSourceRefused(refused, [
    "check that --source names this network's folder; if the stations really left, raise --max-removed or publish the source with velodata build",
  ]);
}

/**
 * What a changed static source that no longer lists some of the stations the release `state`
 * describes says of them (`listed`: the keys of the stations it now has); null when none.
 */
export function removedSaid(state: RefreshState, listed: ReadonlySet<string>): string | null {
  const removed: number[] = [];
  for (const [index, key] of publishedStations(state)) if (!listed.has(key)) removed.push(index);
  return removedStationsSaid(removed, (index) => state.stations.record(index)?.value as Station);
}

/**
 * A changed static source refused whole, though without an error in it (refuseTooManyRemoved):
 * its `reason`, to say with what the run leaves.
 */
export class StaticSourceRefused extends UserError {
  constructor(
    readonly reason: string,
    details: readonly string[],
  ) {
    super(`${reason}; ${TREE_LEFT}`, details);
  }

  /** The refusal once the minute's states were published all the same (static-refused.ts). */
  statesPublished(): UserError {
    return new UserError(`${this.reason}; ${STATIC_CHANGE_REFUSED}`, this.details);
  }
}

/** Each station of the release `state` describes: its position and its stationKey. */
function* publishedStations(state: RefreshState): Generator<[index: number, key: string]> {
  const { stations, contracts } = state;
  for (let index = 0; index < stations.count; index++) {
    const contract = contracts[stations.contractOf(index)]?.value.name;
    const number = stations.numberOf(index);
    if (contract === undefined || number === undefined)
      throw new Error(`bug: no kept station record ${index}`);
    yield [index, stationKey(contract, number)];
  }
}

/** The station at `index` of the release `state` describes, as said (`dublin #42`). */
function stationNamed({ stations, contracts }: RefreshState, index: number): string {
  const contract = contracts[stations.contractOf(index)]?.value.name;
  return `${contract} #${stations.numberOf(index)}`;
}

/** The sizes kept with the accepted states file, if well formed (one per record). */
function keptSizes(accepted: NonNullable<MinuteState["accepted"]>): Int32Array | undefined {
  const { sizes, stations } = accepted;
  return sizes instanceof Int32Array &&
    stations instanceof Int32Array &&
    sizes.length === stations.length &&
    sizes.every((size) => size > 1)
    ? sizes
    : undefined;
}

/**
 * What the next refresh keeps of the states file: its bytes (written now), records' stations and
 * sizes; undefined when the bytes cannot be kept.
 */
function keptStates(folder: string, keep: KeptRecords): MinuteState["accepted"] {
  const file = keepStates(folder, keep.bytes);
  if (!file) return undefined;
  const sizes = keep.sizes ?? recordSizes(keep.bytes);
  return {
    ...file,
    stations: Int32Array.from(keep.stations),
    ...(sizes ? { sizes: Int32Array.from(sizes) } : {}),
  };
}

/** The kept station records as spliced, parsed only for the stations rendered again. */
function kept(state: RefreshState): SplicedStations {
  const records = state.stations;
  const contractName = (index: number): string =>
    state.contracts[records.contractOf(index)]?.value.name ?? "";
  return {
    count: records.count,
    contractName,
    station(index) {
      const value = records.record(index)?.value;
      if (!value) throw new Error(`bug: no kept station record ${index}`);
      // As assembleDataset spells it: the contract's own name.
      const contract = contractName(index);
      return value.contract === contract ? value : withFields(value, { contract });
    },
  };
}

/**
 * The published bytes the kept state points into, each passing the trust test, or null. Read in
 * the thread pool (~170 MB at 100,000 stations), all at once.
 */
async function publishedBytes(tree: Tree, state: RefreshState): Promise<PublishedBytes | null> {
  const manifest = tree.manifest as Manifest;
  const [allLists, feeds] = await Promise.all([
    Promise.all(SURFACES.map((surface) => verifiedFile(tree, pathOf(surface.all)))),
    Promise.all(
      state.contracts.map(({ value: contract }) =>
        Promise.all(
          GBFS_VERSIONS.map((version) => verifiedFile(tree, pathOfStatus(contract.name, version))),
        ),
      ),
    ),
  ]);
  const whole = (files: (Buffer | null)[]): files is Buffer[] => files.every(Boolean);
  if (!whole(allLists) || !feeds.every(whole)) return null;
  const statusFeeds = new Map<string, Buffer[]>();
  state.contracts.forEach(({ value: contract }, at) => {
    statusFeeds.set(contract.name, feeds[at] as Buffer[]);
  });
  return {
    allLists,
    statusFeeds,
    etagAt: (at) => manifest.etagAt(at),
    pathAt: (at) => manifest.paths[at],
  };
}

/** Leaves this run's state beside the tree it just updated, for the next run. */
export function saveRefreshState(
  made: Made,
  inputs: Pick<
    RefreshInputs,
    "out" | "baseUrl" | "refreshSeconds" | "fingerprint" | "sourceSeen"
  > & {
    /** The states file as seen before it was read (statesSeen): kept for the next refresh. */
    states?: StatesSeen | null;
    /**
     * The folder of the release being written, under its writer's lock (a build's, before its
     * switch); by default the served one's.
     */
    folder?: string;
  },
): void {
  // Another writer may have got there in between: then the state names a release the tree does
  // not hold, and the next refresh ignores it.
  const layout = layoutOf(inputs.out);
  const name = inputs.folder === undefined ? currentRelease(layout) : null;
  const folder = inputs.folder ?? (name === null ? null : releasePaths(layout, name).folder);
  if (folder === null) return;
  const { fixed, minute } = splitState(
    refreshStateOf({
      release: made.release,
      baseUrl: inputs.baseUrl,
      refreshSeconds: inputs.refreshSeconds,
      source: inputs.fingerprint,
      staticSource: made.staticRead.source,
      dataset: made.dataset,
      stations: made.stations,
      surfaces: SURFACES.length,
    }),
  );
  // The static part is written first: a run killed between the two leaves a minute part naming
  // the previous static part, which the next run then finds missing (and renders everything).
  const stored = storeStatic(fixed);
  if (!stored) return;
  const fixedSum = writeRefreshCache(folder, stored.value, REFRESH_STATIC_FILE, stored.lines);
  if (fixedSum === null) return;
  // Seen as written (seconds later, it could have changed unseen in between).
  const staticSeen = cacheSeen(folder, REFRESH_STATIC_FILE);
  // The states file is kept only if it is still the file read (its bytes read again, with a stat).
  const stations = inputs.states
    ? stationsOfRecords(made.dataset.stations, made.dataset.states)
    : null;
  const bytes = stations && bytesIfUnchanged(inputs.states ?? null);
  const accepted = stations && bytes && keptStates(folder, { bytes, stations });
  writeRefreshCache(folder, {
    ...minute,
    sourceSeen: inputs.sourceSeen,
    static: fixedSum,
    staticSeen,
    ...(accepted ? { accepted } : {}),
  } satisfies MinuteState);
  dropOtherKeptStates(folder, accepted ? accepted.file : undefined);
}

/** The state the last build or refresh left beside the tree, as read by previousState. */
export interface PreviousState {
  state: RefreshState;
  /** The checksum of its static part, which the next minute part names. */
  checksum: string;
  /** Its static part's file as it was read, its checksum right. */
  staticSeen: CacheSeen;
  accepted: MinuteState["accepted"];
}

/**
 * Both parts of the previous run's state, when they go together and describe the release the tree
 * holds; null otherwise. Whether the fast path may start from it is madeWith's question. Its
 * records' places name the static source folder `source`, this run's.
 */
export function previousState(tree: Tree, source: string): PreviousState | null {
  const minuteRead = readRefreshCache(tree.release.folder);
  const minute = minuteRead?.value as MinuteState | undefined;
  if (minute?.format !== REFRESH_STATE_FORMAT || minute.release !== tree.manifest?.release)
    return null;
  const fixedRead = readRefreshCache(tree.release.folder, REFRESH_STATIC_FILE, minute.staticSeen);
  const stored = fixedRead?.value as StoredStaticState | undefined;
  if (!fixedRead || fixedRead.checksum !== minute.static || stored?.format !== REFRESH_STATE_FORMAT)
    return null;
  const fixed = restoreStatic(stored, fixedRead.line, source);
  if (!fixed || !wellFormedColumns(minute.states, fixed.stations.count)) return null;
  return {
    state: { ...fixed, ...minute },
    checksum: fixedRead.checksum,
    staticSeen: fixedRead.seen,
    accepted: minute.accepted,
  };
}

/** Whether the state was made with these inputs: the same base URL, ttl and static source. */
const madeWith = ({ state }: PreviousState, inputs: RefreshInputs): boolean =>
  state.baseUrl === inputs.baseUrl &&
  state.refreshSeconds === inputs.refreshSeconds &&
  state.source === inputs.fingerprint;

/**
 * A file of the tree whose bytes are the manifest's, by the updater's trust test (its siblings
 * too), or null. Not hashed again: a file that passes it was written by the run that sealed the
 * manifest, whole (a killed run leaves the dirty mark, and the tree is then not trusted at all).
 */
async function verifiedFile(tree: Tree, path: string): Promise<Buffer | null> {
  const known = tree.manifest?.entry(path);
  const onDisk = join(tree.release.tree, fileOf(path));
  if (!known || !trustedOnDisk(onDisk, known, tree.sealedAt)) return null;
  let fd: number | undefined;
  try {
    // One read of the whole file, in the thread pool: it goes on while this thread is busy (a
    // read in pieces would wait for it between two). A small one (each contract's station_status
    // of a network of small contracts, 4,000 of them) at once: the pool's round trip costs more.
    fd = openSync(onDisk, "r");
    const bytes = Buffer.allocUnsafe(known.size);
    let done = known.size <= SMALL_BODY ? 0 : (await read(fd, bytes, 0, known.size, 0)).bytesRead;
    while (done < known.size) {
      const more = readSync(fd, bytes, done, known.size - done, done);
      if (more === 0) return null;
      done += more;
    }
    // Longer than the manifest says: not its bytes.
    return readSync(fd, Buffer.alloc(1), 0, 1, done) === 0 ? bytes : null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const read = promisify(readCallback);
