// The minute refresh: new states → a new Release built from what changed → swapped in whole; failures keep the last good one.
import { performance } from "node:perf_hooks";
import { setImmediate } from "node:timers/promises";
import { SOME_PROBLEMS } from "../commands/output.js";
import { toUserError, UserError } from "../errors.js";
import type { Log } from "../log.js";
import { percent } from "../percent.js";
import { counted } from "../plural.js";
import { compressRelease, reuseVariants } from "../publish/compress.js";
import type { ListLayout } from "../publish/list-layout.js";
import { publish } from "../publish/publish.js";
import { refreshRelease } from "../publish/refresh-release.js";
import {
  addVariants,
  indexedRelease,
  type Release,
  type ReleaseFile,
  staticFilesOf,
} from "../publish/release.js";
import { SmallBodies } from "../publish/small-bodies.js";
import { publishStaticOffThread } from "../publish/static-off-thread.js";
import type { StationCache } from "../publish/station-files.js";
import { alikeLines } from "../source/alike-problems.js";
import type { Dataset } from "../source/dataset.js";
import { removedStationsSaid, statesLeftOut } from "../source/missing-stations.js";
import { formatProblem, type Problem } from "../source/problems.js";
import { type StaticRead, saidLeftOut, UNKNOWN_STATION } from "../source/read-dataset.js";
import { changedVariants, piecesPayFor } from "./changed-variants.js";
import {
  feedHealth,
  feedStatus,
  newestStillReportedOfMap,
  type StatesAge,
  staleStations,
  statesWentBack,
} from "./feed-health.js";
import { followOnDisk } from "./follow-on-disk.js";
import type { Live, RefreshOutcome } from "./live.js";
import type { StateSource } from "./state-source.js";
import { editedDataset, withPublishedStates } from "./states-across-edit.js";
import {
  editPublished,
  removedStations,
  type StaticEdit,
  type StaticReloads,
} from "./static-reload.js";

export interface RefresherOptions {
  live: Live;
  dataset: Dataset;
  cache: StationCache;
  /** The release's static answers, reused as they are at every refresh. */
  staticFiles: ReadonlyMap<string, ReleaseFile>;
  source: StateSource;
  seconds: number;
  /** When set, the tree on disk follows each new release. */
  out?: string;
  log: Log;
  /** When set, an edit of the static source is published at the refresh after it. */
  staticSource?: FollowedSource;
  now?: () => Date;
}

/** The static source a server follows (see static-reload.ts). */
export interface FollowedSource {
  reloads: StaticReloads;
  /** Where the states come from once an edit is published: read against its stations. */
  statesFor(read: StaticRead): StateSource;
  /** The base URL the portal names (null: the page's own host), as the start's publish had it. */
  portalBaseUrl: string | null;
}

export interface Refresher {
  /** Runs one refresh now, between the periodic ones (one under way is that refresh). */
  refreshNow(): Promise<RefreshOutcome>;
  /**
   * Runs one refresh now and starts the period again from it (SIGHUP): its answers expire at the
   * next refresh, a period later, as every refresh's do, also where a front server dates their
   * expiry from the file's write (nginx, see host/nginx). Asked while one is under way (which may
   * have read the sources before the change the reload is for), it runs once that one ends.
   */
  refreshOutOfTurn(): Promise<RefreshOutcome>;
  /**
   * No more refreshes; waits for the one running, at most `waitMs` (a refresh that hangs, on a
   * stalled mount, must not keep the server from stopping), and says so if it is left running.
   */
  stop(waitMs?: number): Promise<void>;
}

/** How long a stop waits for the refresh running. */
export const STOP_WAIT_MS = 20_000;

/** A minute's problems in its one log line: the first few, one mistake repeated counted as one. */
const PROBLEMS_LOGGED = 5;

function logged(problems: readonly Problem[]): string {
  const { lines, left } = alikeLines(problems, SOME_PROBLEMS.ofAKind, PROBLEMS_LOGGED);
  return `${lines.join("; ")}${left > 0 ? ` (and ${left} more)` : ""}`;
}

/** States of stations the static source does not list: added to the feed before the source. */
const unlistedHint = (problems: readonly Problem[]): string =>
  problems.some((problem) => UNKNOWN_STATION.test(problem.message))
    ? " (the server knows the stations and contracts of the static source it last published: a station added there is known from the refresh after the edit, once the source has no error)"
    : "";

/** An edit's release could not be rendered: its cause (a worker thread that failed, a bug). */
class EditNotRendered extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

interface Rendered {
  release: Release;
  cache: StationCache;
  /** The answers that differ from the served release's, when only those were rendered. */
  changed?: ReadonlyMap<string, ReleaseFile>;
  /** How its lists of all stations are made of its contracts' lists, when they are. */
  lists?: readonly ListLayout[];
}

export function startRefresher(options: RefresherOptions): Refresher {
  // Taken out of `options`, which no function below reads: a closure reading it would keep the
  // first dataset and cache (every station's first rendering, the first states) for as long as the
  // server runs, growing its memory as the served ones replace them.
  const { live, log, seconds, out, staticSource } = options;
  const now = options.now ?? (() => new Date());
  let { dataset, cache, source, staticFiles } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<RefreshOutcome> | undefined;
  let stopped = false;
  // The same answers: indexed now, the first refresh shares the index instead of making it.
  live.release = indexedRelease(live.release);
  // The small lists and feeds that change (a network of small contracts has thousands a minute)
  // compressed by a worker thread of their own, started with the first one.
  const small = new SmallBodies();

  // A feed going stale is said when it happens and when it recovers, not only to whoever polls
  // /status: a stalled exporter otherwise publishes old states every minute without a word.
  let feedWasOk = true;
  const sayFeed = (at: Date) => {
    if (!live.feed || !live.feedLimits) return;
    const feed = feedStatus(live.feed, live.feedLimits, at);
    if (feed.ok === feedWasOk) return;
    feedWasOk = feed.ok;
    const stale = staleStations(feed, live.feed.stations);
    if (feed.ok) log(`feed: fresh again, ${stale}`);
    else
      log(
        `feed: ${stale} (${percent(feed.staleShare)}, more than ${percent(feed.maxStaleShare)}): /status says ok: false`,
        "warning",
      );
  };
  sayFeed(now());

  const fail = (at: Date, error: string): RefreshOutcome => {
    const kept = `keeping release ${live.release.id} of ${live.release.generatedAt.toISOString()}`;
    log(`refresh failed: ${error}; ${kept}`, "error");
    return { at, ok: false, error };
  };

  /** The states a minute's file had in error, left out (each station keeps its last state). */
  const sayLeftOut = (leftOut: readonly Problem[]) => {
    log(
      `${source.name}: ${counted(statesLeftOut(leftOut), "state")} in error left out: ${logged(leftOut.map((problem) => saidLeftOut(problem)))}${unlistedHint(leftOut)}`,
      "warning",
    );
  };

  async function refresh(): Promise<RefreshOutcome> {
    const at = now();
    const started = performance.now();
    // An edit of the static source: this refresh publishes it with the minute's states, read
    // against its stations; kept only once the release is swapped in.
    const edit = await staticSource?.reloads.edited(dataset.stations);
    const sayRefused = () => {
      if (live.staticSource && staticSource)
        live.staticSource = { ...live.staticSource, error: staticSource.reloads.refused() };
    };
    sayRefused();
    if (!edit || !staticSource) return refreshWith(null, at, started);
    try {
      return await refreshWith(edit, at, started);
    } catch (cause) {
      if (!(cause instanceof EditNotRendered)) throw cause;
      // Nothing of it was swapped in: the minute's states are published against the source
      // published before, read again against its stations, as after an edit refused.
      staticSource.reloads.failed(edit, cause.cause);
      sayRefused();
      return refreshWith(null, at, started);
    }
  }

  async function refreshWith(
    edit: StaticEdit | null,
    at: Date,
    started: number,
  ): Promise<RefreshOutcome> {
    const edited = edit && editedDataset(edit, dataset, (key) => cache.stations.get(key)?.state);
    const base = edited ? edited.dataset : dataset;
    const from = edit && staticSource ? staticSource.statesFor(edit.read) : source;
    const { states, statesAt, problems, leftOut } = await from.read(base, at);
    if (!states) {
      const errors = problems.filter((problem) => problem.severity === "error");
      // The file itself (missing, unreadable): said once, not as "has 1 error: <the file>: …".
      const [only] = errors;
      if (errors.length === 1 && only && only.at.index === undefined && only.at.line === undefined)
        return fail(at, formatProblem(only));
      return fail(
        at,
        `${source.name} has ${counted(errors.length, "error")}: ${logged(errors)}${unlistedHint(errors)}`,
      );
    }
    const next = { ...base, states, ...(statesAt ? { statesAt } : {}) };
    const previous = live.release;
    // Unchanged files keep their variants; the changed ones are served as they are until theirs are made.
    const fresh =
      edit && edited
        ? await republish(
            previous,
            { ...next, states: withPublishedStates(edited, states) },
            at,
            edit,
          ).catch((cause) => {
            throw new EditNotRendered(cause);
          })
        : await render(previous, next, at);
    let release = fresh.release;
    if (out) {
      // The tree gets each file with its .gz/.br siblings at once (nginx sends those as they are),
      // so with --out the variants are made first; disk first, then memory: when the tree cannot
      // follow, both keep the release they had.
      release = await withChangedVariants(fresh);
      const failure = await followOnDisk(release, out, live);
      if (failure) return fail(at, failure);
    }
    live.release = release; // the swap: requests from now on see the new release only
    // Said once published: an edit whose publish fails has its minute read again, against the
    // source before, and that read's states in error are the ones left out.
    if (leftOut?.length) sayLeftOut(leftOut);
    const beforeHealth = live.feed;
    live.feed = feedHealth(next.stations, states);
    sayFeed(at);
    const newest = live.feed.updates.at(-1);
    const before: StatesAge = {
      statesAt: dataset.statesAt,
      newest:
        newest === undefined
          ? undefined
          : newestStillReportedOfMap(dataset.states, beforeHealth, newest, states),
    };
    const wentBack = statesWentBack(before, { statesAt: next.statesAt, newest });
    if (wentBack) log(`${source.name}: ${wentBack}`, "warning");
    const removed =
      edit &&
      removedStationsSaid(removedStations(dataset.stations, next.stations), (station) => station);
    dataset = next;
    cache = fresh.cache;
    if (edit) {
      source = from;
      staticFiles = staticFilesOf(release.files);
      staticSource?.reloads.published(edit);
      if (live.staticSource)
        live.staticSource = {
          ...live.staticSource,
          updatedAt: edit.times.dataUpdatedAt,
          error: null,
        };
      log(`static source: its edit is published: ${editPublished(previous, release)}`);
      if (removed) log(`static source: ${removed}`, "warning");
      // A station the minute's states report has a fresh state: its state served is no matter.
      const unfit = [...(edited?.unfit ?? [])].filter(([key]) => !states.has(key));
      if (unfit.length > 0)
        log(`static source: ${logged(unfit.map(([, said]) => said))}`, "warning");
    }
    if (!out) {
      // Then the variants, in the thread pool, and a second swap of the same bytes (same id, same
      // ETags) that adds them: no request waits for compression, none is compressed per request.
      try {
        release = await withChangedVariants(fresh);
        if (live.release === fresh.release) live.release = release;
      } catch (cause) {
        // The new release is served already, whole: only its changed answers stay uncompressed.
        log(
          `refresh: variants not made (${(cause as Error).message}); changed answers are sent uncompressed`,
          "warning",
        );
      }
    }
    let changed = fresh.changed?.size ?? 0;
    if (!fresh.changed)
      for (const [path, file] of release.files)
        if (previous.files.get(path)?.etag !== file.etag) changed++;
    const took = ((performance.now() - started) / 1000).toFixed(2);
    log(
      `refreshed from ${source.name}: release ${release.id}, ${counted(changed, "answer")} changed in ${took} s`,
    );
    return { at, ok: true, error: null };
  }

  /** The same release with the variants of what changed (the rest kept theirs). */
  async function withChangedVariants(fresh: Rendered): Promise<Release> {
    return fresh.changed
      ? addVariants(
          fresh.release,
          await changedVariants(fresh.changed, fresh.release.files, fresh.lists, {
            pieces: piecesPayFor(fresh.changed, fresh.lists),
            small: small.compress,
          }),
        )
      : await compressRelease(fresh.release, { budget: "refresh" });
  }

  /** The whole release again, from the static source's edit: every answer rendered anew. */
  async function republish(
    served: Release,
    next: Dataset,
    at: Date,
    edit: StaticEdit,
  ): Promise<Rendered> {
    const options = {
      generatedAt: at,
      refreshSeconds: seconds,
      baseUrl: served.baseUrl,
      portalBaseUrl: staticSource?.portalBaseUrl ?? null,
      ...edit.times,
    };
    // The static answers by a worker thread (the bundle's tables alone held this one ~1.1 s at
    // 100,000 stations); the station answers here, in steps: between two contracts, the requests
    // that came meanwhile are answered (from `served`).
    const staticAnswers = publishStaticOffThread(next, options, "together");
    staticAnswers.catch(() => {}); // awaited by publish, once the station answers are made
    const published = await publish(next, { ...options, pause: setImmediate }, staticAnswers);
    return { release: reuseVariants(published.release, served), cache: published.cache };
  }

  /** The served release with the changed station answers replaced; a whole publish when the cache cannot say. */
  async function render(served: Release, next: Dataset, at: Date): Promise<Rendered> {
    const timing = { generatedAt: at, refreshSeconds: seconds };
    // Between two contracts, the requests that came meanwhile are answered (from `served`).
    const refreshed = await refreshRelease(served, next, cache, { ...timing, pause: setImmediate });
    if (refreshed) return refreshed;
    const published = await publish(
      next,
      { ...timing, cache, baseUrl: served.baseUrl },
      staticFiles,
    );
    return { release: reuseVariants(published.release, served), cache: published.cache };
  }

  const refreshNow = async (): Promise<RefreshOutcome> => {
    if (!running) {
      // A refresh that outlasts its period (a states file on a stalled mount, a pipe nobody
      // writes) is said once; /status shows it late.
      const watchdog = setTimeout(
        () => log(`refresh from ${source.name} still running after ${seconds} s`, "warning"),
        seconds * 1000,
      );
      watchdog.unref();
      running = refresh()
        .catch((cause) => fail(now(), failureOf(cause)))
        .then((outcome) => {
          live.lastRefresh = outcome;
          return outcome;
        })
        .finally(() => {
          clearTimeout(watchdog);
          running = undefined;
        });
    }
    return running;
  };

  // A timeout chain, not an interval: a slow refresh is never overlapped by the next one. Each is
  // due a period after the one before was due, not after it ended (a refresh of a few seconds
  // would otherwise push every next one later, and a states file written each minute would be
  // skipped now and then); one that ended past the next's time skips to the time after.
  const period = seconds * 1000;
  let due = now().getTime();
  const schedule = () => {
    if (stopped) return;
    const at = now().getTime();
    due += period;
    if (due <= at) due += Math.ceil((at - due + 1) / period) * period;
    // The clock set back (past a second of leeway for timers and clocks): a period from now, not
    // the hour it went back.
    if (due - at > period + 1000) due = at + period;
    live.nextRefreshAt = new Date(due);
    timer = setTimeout(() => void refreshNow().finally(schedule), due - at);
  };
  schedule();

  // The refresh out of turn asked for while one was under way, run once that one ends.
  let queued: Promise<RefreshOutcome> | undefined;
  const refreshOutOfTurn = (): Promise<RefreshOutcome> => {
    // Once stopped, there is no period to restart.
    if (stopped) return refreshNow();
    if (running) {
      // The one under way may have looked at the static source before the edit this reload is
      // to publish (saved, then `systemctl reload`): one more once it ends, the same one for any
      // reload asked meanwhile.
      queued ??= running.then((outcome) => {
        queued = undefined;
        return stopped ? outcome : refreshOutOfTurn();
      });
      return queued;
    }
    clearTimeout(timer);
    // Due now, as a periodic refresh under way is: the answers it replaces expire now, and a
    // refresh that hangs is late from now. The next is due a period after it (schedule).
    due = now().getTime();
    live.nextRefreshAt = new Date(due);
    const outcome = refreshNow();
    void outcome.finally(schedule);
    return outcome;
  };

  return {
    refreshNow,
    refreshOutOfTurn,
    async stop(waitMs = STOP_WAIT_MS) {
      stopped = true;
      clearTimeout(timer);
      if (!running) return small.stop();
      let left: NodeJS.Timeout | undefined;
      const late = new Promise<"late">((resolve) => {
        left = setTimeout(() => resolve("late"), waitMs);
      });
      const ended = await Promise.race([running, late]);
      clearTimeout(left);
      if (ended === "late")
        log(
          `stopping without the refresh from ${source.name}, still running after ${waitMs / 1000} s${out ? ": a tree it was moving files into is marked so, and repaired at the next start" : ""}`,
          "warning",
        );
      await small.stop();
    },
  };
}

/**
 * Why a refresh threw: the system's condition (the states file's folder closed to the server, a
 * disk's error) said as such, with what to do; anything else is a bug.
 */
function failureOf(cause: unknown): string {
  const said = toUserError(cause);
  return said instanceof UserError
    ? said.message
    : `internal error (a bug in velodata): ${(cause as Error).message}`;
}
