// `velodata refresh`: one regeneration of the dynamic answers into an existing tree, for static hosting from cron.
import { closeSync, existsSync, openSync, readdirSync, readSync } from "node:fs";
import { join } from "node:path";
import { toUserError, UserError } from "../errors.js";
import { counted } from "../plural.js";
import { DEFAULT_BASE_URL } from "../publish/default-base-url.js";
import { DEFAULT_REFRESH_SECONDS } from "../routes/max-age.js";
import {
  type FeedHealth,
  feedHealth,
  newestStillReported,
  type StatesAge,
  statesWentBack,
} from "../serve/feed-health.js";
import { stationKey } from "../source/dataset.js";
import { keptSaid } from "../source/kept-states.js";
import {
  DEFAULT_MAX_MISSING_SHARE,
  DEFAULT_MAX_REMOVED_SHARE,
} from "../source/missing-stations.js";
import { type SourceSeen, staticSourceFingerprint } from "../source/source-fingerprint.js";
import { statesFileTime } from "../source/source-time.js";
import { StepTimes } from "../step-times.js";
import { statesSeen } from "../tree/accepted-states.js";
import { refuseInsideTree } from "../tree/inside-tree.js";
import { layoutOf } from "../tree/layout.js";
import { removeLeftoverReleases } from "../tree/leftover-releases.js";
import { withLeftoversBeingRemoved } from "../tree/leftovers-space.js";
import { refuseIfKept } from "../tree/lock.js";
import { readTree, releaseBaseUrl, type Tree } from "../tree/read-tree.js";
import { stuckReleases, stuckSaid } from "../tree/stuck-releases.js";
import { TREE_UNCHANGED } from "../tree/tree-error.js";
import { untrustedFiles } from "../tree/trust-test.js";
import { type UpdateStats, updateTree } from "../tree/update-tree.js";
import {
  type FastRefresh,
  incrementalRefresh,
  lastStatesKept,
  type PreviousState,
  previousState,
  type RefreshInputs,
  type RefreshRun,
  refuseTooManyMissing,
  refuseTooManyRemoved,
  removedSaid,
  StaticSourceRefused,
  saveRefreshState,
} from "./incremental-refresh.js";
import { type Output, reportProblems, terminalOutput } from "./output.js";
import { type RefreshPhase, refreshStopped } from "./refresh-stopped.js";
import { heldStops } from "./said-when-stopped.js";
import { warnIfStalled } from "./stalled-feed.js";
import { staticRefusal } from "./static-refused.js";
import { saidTreeLeft, TREE_LEFT } from "./tree-left.js";

export interface RefreshOptions {
  source: string;
  state: string;
  out: string;
  /** By default the tree's (as given to `build`): the OpenAPI document and GBFS files keep it. */
  baseUrl?: string;
  /** Percent of the stations reported before that the states file may leave out; default 10. */
  maxMissing?: number;
  /** Percent of the stations published that a changed static source may no longer list; default 10. */
  maxRemoved?: number;
  /** Seconds between refreshes (cron's interval): the GBFS station_status ttl; default the tree's. */
  refreshSeconds?: number;
  /** A station not reported for this many minutes is stale; default 15. */
  staleMinutes?: number;
  /** Percent of stale stations past which the refresh warns of a stalled feed; default 25. */
  maxStale?: number;
  now?: Date;
  output?: Output;
  /** Say where the time went (read + validate, render, compress, write), after the summary. */
  timings?: boolean;
}

export async function refresh(options: RefreshOptions): Promise<UpdateStats> {
  // A stop says what it leaves. From the tree's first change until the next run's state is saved
  // beside it, one waits: killed in the moves, the tree would mix two minutes until the next run
  // repaired it, and without that state the next run would render everything. An error meanwhile
  // is said instead (it says what it leaves), the stop dropped.
  let phase: RefreshPhase = "before";
  const stops = heldStops(() => refreshStopped(options.out, phase));
  const whileMoving = async (move: () => Promise<void>) => {
    phase = "moving";
    stops.hold();
    await move();
    phase = "moved";
  };
  try {
    return await refreshTree(options, { whileMoving, saved: () => stops.release() });
  } catch (cause) {
    stops.drop();
    throw cause;
  } finally {
    stops.forget();
  }
}

/** What refresh's stops need told: the moves to run, and when the next run's state is saved. */
interface StopPoints {
  whileMoving: NonNullable<RefreshRun["whileMoving"]>;
  saved: () => void;
}

async function refreshTree(options: RefreshOptions, stopPoints: StopPoints): Promise<UpdateStats> {
  const output = options.output ?? terminalOutput();
  refuseInsideTree(options.source, "--source");
  refuseInsideTree(options.state, "--state");
  // Said before anything is read; the lock decides for good.
  refuseIfKept(layoutOf(options.out));
  // The tree as the last run left it, read once for the fast path, the siblings to reuse and the
  // update (which reads it again under its lock only if another writer changed it meanwhile).
  const tree = readTree(options.out);
  const untrusted = whyUntrusted(tree);
  // Every file the fast path leaves as it is must pass the updater's trust test: by `find` in a
  // child process (or a worker thread), started first, so that it runs while the rest is read.
  // A file that fails it means a full render, which repairs it.
  const trust = untrustedFiles(tree);
  trust.catch(() => {}); // awaited by the fast path, after the states are read
  // Removed beside the minute rather than after it: a remover started as the run ends would be
  // killed with it by a systemd timer's unit, where this one has the minute to go on (and what it
  // removed stays removed). Housekeeping: the minute goes on without it.
  let leftovers = 0;
  try {
    leftovers = removeLeftoverReleases(tree.layout);
    for (const folder of stuckReleases(tree.layout)) output.warn(`warning: ${stuckSaid(folder)}`);
  } catch (cause) {
    const said = toUserError(cause);
    output.warn(
      `warning: ${tree.layout.store}: not looked for release folders a stopped build left: ${said instanceof Error ? said.message : String(said)}`,
    );
  }
  // Whatever the manifest's format or state, and from an older velodata's answers: an upgrade or a
  // repair keeps the public address, which the first refresh would otherwise replace with the default.
  const recorded = tree.manifest?.baseUrl ?? releaseBaseUrl(tree.release);
  if (options.baseUrl === undefined && recorded === undefined)
    output.warn(
      `warning: ${options.out} records no base URL (a tree of an older velodata?): its GBFS feeds and OpenAPI document now name ${DEFAULT_BASE_URL}; give --base-url https://… (the public address)`,
    );
  // What the last run left beside the tree: where the fast path starts, what --max-missing holds
  // a full refresh to, and the ttl the tree's feeds say.
  const previous = previousState(tree, options.source);
  // Before reading: a source edited meanwhile then reads as changed next time, never as unchanged.
  const source = sourceFingerprint(options.source, previous);
  const inputs: RefreshInputs = {
    out: options.out,
    state: options.state,
    // Without --base-url, the one the tree's answers name: a cron line that leaves it out must not
    // turn a public tree's GBFS and OpenAPI URLs into the default's.
    baseUrl: options.baseUrl ?? recorded ?? DEFAULT_BASE_URL,
    fingerprint: source.fingerprint,
    sourceSeen: source.seen,
    generatedAt: options.now ?? new Date(),
    // Without --refresh, the one the tree was made with, as for the base URL: from the last run's
    // state or the manifest, else (an older velodata's tree) what its feeds say.
    refreshSeconds:
      options.refreshSeconds ??
      previous?.state.refreshSeconds ??
      tree.manifest?.refreshSeconds ??
      ttlOnDisk(tree) ??
      DEFAULT_REFRESH_SECONDS,
    maxMissingShare:
      options.maxMissing === undefined ? DEFAULT_MAX_MISSING_SHARE : options.maxMissing / 100,
    maxRemovedShare:
      options.maxRemoved === undefined ? DEFAULT_MAX_REMOVED_SHARE : options.maxRemoved / 100,
  };
  // Throws on any error in the source or the states: the tree stays as it was.
  const steps = new StepTimes();
  const run = { steps, whileMoving: stopPoints.whileMoving };
  const fast = await incrementalRefresh(inputs, tree, previous, trust, output, run).catch(
    (cause: unknown) => {
      throw withLeftoversBeingRemoved(cause, leftovers);
    },
  );
  let refused: UserError | null = null;
  let done = fast;
  if (!done)
    try {
      done = await fullRefresh(options, inputs, tree, previous, output, run);
    } catch (cause) {
      // A static source changed with an error in it, or refused whole (too many stations gone):
      // the states are published all the same (the run then ends in error, static-refused.ts).
      refused =
        cause instanceof StaticSourceRefused
          ? cause.statesPublished()
          : cause instanceof UserError
            ? await refusedChange(options.source, inputs, previous)
            : null;
      // Not published either (the states in error too, too many missing): said, then the first
      // refusal, which says why with every error of the full read, the states' among them, and
      // what the run leaves: the warning says why alone (cron mails both lines), and nothing when
      // its why is the refusal's own (a states file missing).
      done =
        refused &&
        (await asLastPublished(inputs, tree, previous, trust, output, run).catch((also) => {
          if (!(also instanceof UserError)) throw also;
          const why = withoutWhatItLeaves(also.message);
          if (cause instanceof UserError && why !== withoutWhatItLeaves(cause.message))
            output.warn(`warning: nor were the minute's states published: ${why}`);
          return null;
        }));
      if (!done) throw withLeftoversBeingRemoved(cause, leftovers);
    }
  const { stats, total, release, feed, reported } = done;
  stopPoints.saved();
  steps.ended("write");
  const notes = [
    stats.removed > 0 ? `${stats.removed} removed` : "",
    leftovers > 0
      ? `${counted(leftovers, "leftover release folder")} (a stopped build's or removal's) handed to a remover`
      : "",
    stats.verified
      ? `every file checked, as ${untrusted}`
      : stats.repaired > 0
        ? `${stats.repaired} repaired (changed on disk since the last update)`
        : "",
    fast
      ? "static source unchanged: only the changed stations rendered"
      : refused
        ? "the static source's change refused (below): only the changed stations rendered"
        : "",
  ].filter(Boolean);
  output.info(
    `refreshed ${options.out}: ${stats.files} of ${counted(total, "answer")} changed` +
      `${notes.length > 0 ? `, ${notes.join(", ")}` : ""} (release ${release})`,
  );
  // Published all the same, but said on stderr (cron mails it): a tree kept by cron has no
  // /status to show a stalled feed.
  warnIfStalled(feed, options.state, options, inputs.generatedAt, output);
  const wentBack = statesWentBack(publishedAge(previous, feed, reported), {
    statesAt: statesFileTime(options.state),
    newest: feed.updates.at(-1),
  });
  if (wentBack) output.warn(`warning: ${options.state}: ${wentBack}`);
  if (options.timings) output.info(steps.line());
  if (refused) throw refused;
  return stats;
}

/** A refusal's message without what it says the run leaves of the tree. */
function withoutWhatItLeaves(message: string): string {
  for (const left of [TREE_LEFT, TREE_UNCHANGED])
    if (message.endsWith(`; ${left}`)) return message.slice(0, -`; ${left}`.length);
  return message;
}

/**
 * The static source's fingerprint, taken against what the last run saw. A source that cannot be
 * read (a file turned into a folder, its permissions lost, the folder gone) is a change with an
 * error in it: refused, the minute's states published all the same against the source last
 * published (static-refused.ts), as for a file deleted; one that had no last run is said.
 */
function sourceFingerprint(
  source: string,
  previous: PreviousState | null,
): { fingerprint: string; seen: SourceSeen } {
  try {
    return staticSourceFingerprint(
      source,
      previous?.state.sourceSeen && {
        fingerprint: previous.state.source,
        seen: previous.state.sourceSeen,
      },
    );
  } catch (cause) {
    if (!previous || !(toUserError(cause) instanceof UserError)) return saidTreeLeft(cause);
    // Never a source's fingerprint: the fast path does not take it for the one published.
    return { fingerprint: "unreadable", seen: { signature: "", at: 0 } };
  }
}

/** Why the static source's change is refused, when it changed since the last run and has errors. */
async function refusedChange(
  source: string,
  inputs: RefreshInputs,
  previous: PreviousState | null,
): Promise<UserError | null> {
  const changed = previous !== null && previous.state.source !== inputs.fingerprint;
  return changed ? staticRefusal(source) : null;
}

/**
 * The fast path against the static source the tree has (the last run's state), not the one in
 * the folder; null where it cannot run.
 */
async function asLastPublished(
  inputs: RefreshInputs,
  tree: Tree,
  previous: PreviousState | null,
  trust: Promise<string[] | null>,
  output: Output,
  run: RefreshRun,
): Promise<FastRefresh | null> {
  if (!previous) return null;
  // Seen as no files are: the next run reads the source again, its change still to publish.
  const last = {
    ...inputs,
    fingerprint: previous.state.source,
    sourceSeen: { signature: "", at: 0 },
  };
  return incrementalRefresh(last, tree, previous, trust, output, run);
}

/**
 * How recent the states the previous run published are (from its state: the tree now holds the
 * new ones), against the stations the new file reports: `health` and `reported`, this run's.
 */
function publishedAge(
  previous: PreviousState | null,
  health: FeedHealth,
  reported: FastRefresh["reported"],
): StatesAge {
  if (!previous) return {};
  const { statusAt, states } = previous.state;
  const newest = health.updates.at(-1);
  const still = newest === undefined ? undefined : newestStillReported(states, newest, reported);
  return {
    ...(statusAt ? { statesAt: new Date(statusAt) } : {}),
    ...(still === undefined ? {} : { newest: still }),
  };
}

/**
 * The `ttl` the tree's GBFS station_status feeds say, read from the head of one of them (every
 * feed of a tree says the same), or undefined when the tree has none to read.
 */
function ttlOnDisk(tree: Tree): number | undefined {
  try {
    const contracts = join(tree.release.tree, "contracts");
    const [first] = readdirSync(contracts);
    if (first === undefined) return undefined;
    const fd = openSync(join(contracts, first, "gbfs/v3/station_status.json"), "r");
    try {
      const head = Buffer.alloc(256);
      const read = readSync(fd, head, 0, head.length, 0);
      const ttl = /"ttl":(\d+)/.exec(head.toString("latin1", 0, read))?.[1];
      return ttl === undefined ? undefined : Number(ttl);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** Why no file of the tree can be trusted as the manifest describes it (said when all are checked). */
function whyUntrusted(tree: Tree): string {
  if (tree.otherFormat !== null)
    return `its manifest has format ${tree.otherFormat}, another version of velodata's`;
  return existsSync(tree.release.dirty)
    ? "the previous update of this tree did not finish"
    : "its manifest could not be read";
}

/**
 * Everything read and rendered again: the first refresh, the static source changed, or the fast
 * path found something it cannot trust. Its modules are loaded only then.
 */
async function fullRefresh(
  options: RefreshOptions,
  inputs: RefreshInputs,
  tree: Tree,
  previous: PreviousState | null,
  output: Output,
  { steps, whileMoving }: Required<RefreshRun>,
): Promise<FastRefresh> {
  const [
    { publishOffThread },
    { encodedInChunks },
    { staticSourceTimes },
    { readDataset, saidLeftOut },
    { variantsOnDisk },
    { compressReleaseOffThread },
  ] = await Promise.all([
    import("../publish/static-off-thread.js"),
    import("../publish/encoded-together.js"),
    import("../source/source-time.js"),
    import("../source/read-dataset.js"),
    import("../tree/variants-on-disk.js"),
    import("../publish/compression-worker.js"),
  ]);
  const states = statesSeen(options.state); // before reading: kept only if unchanged since
  // A minute's read, as the fast path's: records in error left out, said.
  const { dataset, problems, staticRead, leftOut, leftOutStations } = await readDataset(
    options.source,
    options.state,
    { leaveOut: true },
  ).catch(saidTreeLeft);
  // Against the stations the tree has a state for that the source still lists (when the last
  // run's state says which), before the warnings: theirs ("published as CLOSED") would describe
  // a publish that does not happen.
  let removed: string | null = null;
  if (dataset && previous) {
    const listed = new Set(
      dataset.stations.map(({ contract, number }) => stationKey(contract, number)),
    );
    refuseTooManyRemoved(previous.state, listed, options.source, inputs.maxRemovedShare);
    refuseTooManyMissing(previous.state, dataset.states, inputs, listed, {
      leftOut,
      leftOutStations,
    });
    removed = removedSaid(previous.state, listed);
  }
  // The stations the file leaves out keep the state the tree has for them, if it still fits them
  // (kept-states.ts).
  const last =
    dataset && staticRead && previous
      ? lastStatesKept(previous.state, staticRead.source, dataset.states)
      : undefined;
  // Throws on any error, saying the tree is left as it was.
  reportProblems(
    keptSaid(
      [...problems, ...(leftOut ?? []).map((problem) => saidLeftOut(problem))],
      last ? last.at : new Set(),
      last?.unfit,
    ),
    output,
    TREE_LEFT,
  );
  if (!dataset || !staticRead) throw new Error("readDataset returned no dataset and no error");
  for (const note of staticRead.notes) output.warn(note);
  steps.ended("read");
  const published = last ? { ...dataset, states: last.states } : dataset;
  // As a build does: the static answers rendered by a worker thread while this one renders the
  // station answers.
  const { release: made, cache } = await publishOffThread(published, {
    generatedAt: inputs.generatedAt,
    baseUrl: inputs.baseUrl,
    refreshSeconds: inputs.refreshSeconds,
    ...staticSourceTimes(options.source),
    encode: encodedInChunks(), // this process exits once they are written
  });
  steps.ended("render");
  // Siblings of unchanged files are read back from the tree: only what changed is compressed, from
  // a worker thread as a build does.
  const release = await compressReleaseOffThread(made, {
    budget: "refresh",
    previous: variantsOnDisk(made, tree),
  });
  steps.ended("compress");
  const stats = await updateTree(release, options.out, { tree, whileMoving });
  // Said once published, on stderr (cron mails it): the answers of these stations are gone.
  if (removed) output.warn(`warning: ${removed}`);
  // The file's own states: the next run reads it against them, record by record (the kept ones,
  // which it has no record of, the state takes from the renderings).
  saveRefreshState({ release, dataset, stations: cache, staticRead }, { ...inputs, states });
  // Also the file's: a kept station counts as missing, as serve's /status counts it.
  const feed = feedHealth(dataset.stations, dataset.states);
  return {
    stats,
    total: release.files.size,
    release: release.id,
    feed,
    reported: (index) => {
      const contract = previous?.state.contracts[previous.state.stations.contractOf(index)];
      const number = previous?.state.stations.numberOf(index);
      return (
        contract !== undefined &&
        number !== undefined &&
        dataset.states.has(stationKey(contract.value.name, number))
      );
    },
  };
}
