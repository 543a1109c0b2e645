// `velodata serve`: the keyed API from memory, refreshed every --refresh seconds, optionally mirrored to --out.
import { existsSync, writeSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../errors.js";
import { PRIORITY_PREFIX, writesToJournal } from "../journal.js";
import type { Log } from "../log.js";
import { counted } from "../plural.js";
import { compressRelease } from "../publish/compress.js";
import { isLoopback } from "../publish/default-base-url.js";
import { publish, withBaseUrl } from "../publish/publish.js";
import { staticFilesOf } from "../publish/release.js";
import { failedKeyLimit } from "../serve/failed-key-limit.js";
import { feedHealth, feedLimitsOf } from "../serve/feed-health.js";
import { watchFrontTree } from "../serve/front-tree.js";
import { tuneHeapForServing } from "../serve/heap-tuning.js";
import { checkKeyFile, watchKeyRing } from "../serve/keys/key-ring.js";
import type { Live, RefreshOutcome } from "../serve/live.js";
import { bufferedLog, fdWriter, linesOf, timestamp } from "../serve/log-sink.js";
import { missingAtStart } from "../serve/missing-at-start.js";
import { portFree } from "../serve/port-free.js";
import { startRefresher } from "../serve/refresher.js";
import { type RunningServer, startServer } from "../serve/server.js";
import { seededRandom, simulate } from "../serve/simulator.js";
import {
  DEFAULT_MAX_MISSING_SHARE,
  notRegularFile,
  simulator,
  stateFile,
} from "../serve/state-source.js";
import { statesKeptFromTree } from "../serve/states-in-tree.js";
import { staticSourceReloads } from "../serve/static-reload.js";
import { DEFAULT_DETAILS_FROM, statusDetailsOf } from "../serve/status-details.js";
import { assembleDataset, type Dataset } from "../source/dataset.js";
import { keptSaid } from "../source/kept-states.js";
import type { KnownStates } from "../source/known-states.js";
import { DEFAULT_MAX_REMOVED_SHARE } from "../source/missing-stations.js";
import {
  readStates,
  readStatic,
  type StatesRead,
  type StaticRead,
} from "../source/read-dataset.js";
import { statesFileTime, staticSourceTimes } from "../source/source-time.js";
import { STATES_FILE } from "../source/states-file.js";
import { refuseInsideTree } from "../tree/inside-tree.js";
import { layoutOf } from "../tree/layout.js";
import { keepTree, refuseIfKept } from "../tree/lock.js";
import { recordedBaseUrlOf } from "../tree/read-tree.js";
import { stuckSaid } from "../tree/stuck-releases.js";
import { refuseForeignOut, writeTree } from "../tree/write-tree.js";
import { heapRoomWarning } from "./heap-room.js";
import { type Output, reportProblems, terminalOutput } from "./output.js";

/** Documented in the README; accepted only with --demo-key, for trying the API on a laptop. */
export const DEMO_KEY = "0123456789abcdef0123456789abcdef01234567";
/** The demo key's id in request lines (the keys file's ids are 8 hex digits). */
const DEMO_KEY_ID = "demo";

export interface ServeOptions {
  source: string;
  keys: string;
  out?: string;
  port?: number;
  host?: string;
  /** Seconds between refreshes. */
  refresh?: number;
  /** States file read at each refresh; default `<source>/states.json`. */
  state?: string;
  simulate?: boolean;
  /** Seed of the simulator; a fixed seed gives a repeatable demo. */
  seed?: number;
  demoKey?: boolean;
  /** The public base URL of the API (OpenAPI `servers`, GBFS URLs); default the address it listens on. */
  baseUrl?: string;
  /** Percent of the stations a states file may leave out before it is refused (default 10). */
  maxMissing?: number;
  /** Percent of the stations published that an edit of the static source may remove (default 10). */
  maxRemoved?: number;
  /** Minutes without a report after which a station is stale (default 15). */
  staleMinutes?: number;
  /** Percent of stale stations past which /status says `ok: false` (default 25). */
  maxStale?: number;
  /** Open connections at most (default 1000). */
  maxConnections?: number;
  /** Seconds an idle connection is kept (default 10). */
  idleTimeout?: number;
  /** Wrong keys per client address and minute before 429 (default: no limit). */
  maxKeyFailures?: number;
  /** false: no line per answered request (as nginx's `access_log off`; errors are still logged). */
  requestLog?: boolean;
  /**
   * Addresses and networks whose clients see the whole /status, or `any` (detailsFromEntries);
   * by default this machine's (DEFAULT_DETAILS_FROM).
   */
  statusDetailsFrom?: string[];
  output?: Output;
}

export interface ServeHandle extends RunningServer {
  /** The server's log: stamped lines, in order with its request lines (signals say theirs here). */
  log: Log;
  /** Runs one refresh now, the period starting again from it (SIGHUP; see Refresher). */
  refreshNow: () => Promise<RefreshOutcome>;
  /** Stops refreshing, stops accepting, waits for requests in flight. */
  stop: () => Promise<void>;
}

/**
 * What a failed write of the server's log does. Its reader gone (a `| logger` that died, a log
 * service restarting: EPIPE), the API goes on without its lines, said once on stderr, where a
 * server exiting quietly with status 0 would be restarted by no supervisor. Any other failure
 * stops it, as a command's output error does.
 */
function logWriteFailed(): (error: NodeJS.ErrnoException) => void {
  let said = false;
  return (error) => {
    if (error.code !== "EPIPE") {
      process.stdout.emit("error", error);
      return;
    }
    if (said) return;
    said = true;
    const priority = writesToJournal(2) ? PRIORITY_PREFIX.error : "";
    try {
      // Not process.stderr: on the same dead pipe, its error would end the process.
      writeSync(
        2,
        `${priority}velodata: the log's reader went away (standard output closed): serving on without log lines\n`,
      );
    } catch {}
  };
}

export async function serve(options: ServeOptions): Promise<ServeHandle> {
  tuneHeapForServing();
  // What the server reads, never inside a published tree: its own --out's next write, or another
  // tree's build, would delete them.
  refuseInsideTree(options.source, "--source");
  if (options.state) refuseInsideTree(options.state, "--state");
  refuseInsideTree(options.keys, "--keys");
  if (options.out) refuseForeignOut(options.out);
  const output = options.output ?? terminalOutput();
  // On the process's stdout, the server's lines (requests and the rest, in order) are written by
  // the thread pool: a pipe whose reader is slow blocked the whole server in process.stdout.write
  // (up to 25 ms per batch measured under wrk with the bench reading). A given output gets them as
  // it always did.
  const sink = options.output
    ? null
    : bufferedLog(fdWriter(1, logWriteFailed()), {
        journal: writesToJournal(1),
      });
  const say: Log = sink ?? ((line) => output.info(line));
  const log: Log = (line, severity) => say(`${new Date().toISOString()} ${line}`, severity);
  const seconds = options.refresh ?? 60;
  const maxMissingShare =
    options.maxMissing === undefined ? DEFAULT_MAX_MISSING_SHARE : options.maxMissing / 100;

  const port = options.port ?? 8080;
  const host = options.host ?? "127.0.0.1";
  await portFree(port, host);
  await checkKeyFile(options.keys);
  // Before the read: an edit made meanwhile is published by the first refresh.
  const reloads = staticSourceReloads(
    options.source,
    log,
    options.maxRemoved === undefined ? DEFAULT_MAX_REMOVED_SHARE : options.maxRemoved / 100,
  );
  const staticRead = await readStatic(options.source);
  reportProblems(staticRead.problems, output, NOT_STARTED);
  // In the log, as the keys file's note: said once, not at each edit of the source.
  for (const note of staticRead.notes) log(note);
  const statePath = options.state ?? join(options.source, STATES_FILE);
  const unread = options.simulate ? null : notRegularFile(statePath);
  if (unread) throw new UserError(`${statePath} ${unread}`);
  if (!options.simulate && !existsSync(statePath))
    throw new UserError(`state file not found: ${statePath}`, [
      options.state
        ? "check the path given to --state"
        : "give the states file your feed writes with --state FILE, or try the server with simulated states: --simulate",
    ]);
  // The simulator can start from nothing (each station installed half full at its first step); a
  // state file must be good.
  const fromFile = !(options.simulate && !existsSync(statePath));
  const statesAt = fromFile ? statesFileTime(statePath) : undefined;
  // Into the buffer the refresher reads the file into every minute.
  // As every minute's, a state in error is left out (a restart must not fail on one bad record of
  // a live feed), unless more of the stations than --max-missing allows would go without one, the
  // stations the file has no record of counted with them (missingAtStart).
  const initial: StatesRead = fromFile
    ? await readStates(staticRead, statePath, undefined, { reuse: true, leaveOut: true })
    : { problems: [] };
  // Restarted while the feed leaves stations out: each keeps the state its tree publishes, marked
  // disconnected, as it would have had the server run on (said so in its warning). Simulated
  // states replace them all: nothing to read then.
  const fromTree =
    options.out && initial.states && !options.simulate
      ? statesKeptFromTree(options.out, staticRead.source, initial.states)
      : undefined;
  const missing = missingAtStart(initial, {
    path: statePath,
    stations: staticRead.source.stations,
    maxMissingShare,
    lastKept: !!fromTree?.at.size,
    simulated: !!options.simulate,
  });
  reportProblems(
    keptSaid([...initial.problems, ...missing], fromTree?.at ?? new Set(), fromTree?.unfit),
    output,
    NOT_STARTED,
  );
  const loaded = assembleDataset(staticRead.source, initial.states ?? new Map(), statesAt);
  const random = seededRandom(options.seed ?? Date.now());
  // A simulated network starts live: one period is simulated before anything is served, so the
  // stations silent in the source (old fixtures) report at once and /status is healthy from the
  // start. Its reports are stamped up to a minute back, as a live feed's are: the first refresh
  // then moves every clock forward, as each later one does. The states are known now: GBFS's
  // last_updated says so, its ttl running to the first refresh.
  const knownAt = new Date();
  const reportedAt = new Date(knownAt.getTime() - Math.min(seconds, 60) * 1000);
  const dataset = options.simulate
    ? { ...loaded, states: simulate(loaded, reportedAt, random, seconds), statesAt: knownAt }
    : loaded;
  // The first release shows those stations at their kept state; the refresher and /status go on
  // from what the file said, which leaves them out (missing, as after a refresh that kept them).
  const shown = fromTree ? { ...dataset, states: fromTree.states } : dataset;

  const listening = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  // Without --base-url, a tree it is given keeps the public address it was made with, as a cron
  // refresh of it would: a trial run of the server must not leave its GBFS and OpenAPI links
  // naming this one for the refreshes after it. A loopback address (a build's default, a server's
  // own) is no public address to keep.
  const recorded = options.out && !options.baseUrl ? recordedBaseUrlOf(options.out) : undefined;
  const kept = recorded && !isLoopback(recorded) ? recorded : undefined;
  const baseUrl = options.baseUrl ?? kept;
  const { staticUpdatedAt, dataUpdatedAt } = staticSourceTimes(options.source);
  const first = await publish(shown, {
    generatedAt: new Date(),
    baseUrl: baseUrl ?? listening,
    // Without a base URL the portal names the host it is read from: this server, by any name.
    portalBaseUrl: baseUrl ?? null,
    staticUpdatedAt,
    dataUpdatedAt,
    refreshSeconds: seconds,
  });
  const release = await compressRelease(first.release, { budget: "build" });
  const live: Live = {
    release,
    refreshSeconds: seconds,
    nextRefreshAt: null,
    lastRefresh: null,
    feed: feedHealth(dataset.stations, dataset.states),
    feedLimits: feedLimitsOf(options),
    staticSource: { path: options.source, updatedAt: dataUpdatedAt, error: null },
  };

  // Said before anything listens: a second server on a kept tree must not log that it answers.
  // (Its writers' lock decides for good, later.)
  if (options.out) refuseIfKept(layoutOf(options.out));
  const keys = await watchKeyRing({
    path: options.keys,
    extraKeys: options.demoKey ? [{ key: DEMO_KEY, id: DEMO_KEY_ID }] : [],
    log,
  });
  live.keysFailingSince = keys.failingSince;
  live.keysActive = keys.activeCount;
  // One line per request: stamped when it happens, written in batches.
  const requestLog = sink ?? bufferedLog((chunks) => output.info(linesOf(chunks)));
  const running = await startServer({
    live,
    keys,
    log: (line, severity) => requestLog(`${timestamp()} ${line}`, severity),
    // Said as the refreshes' lines are: a front's tree is the tree's concern.
    front: watchFrontTree(options.out, live, log),
    statusDetails: statusDetailsOf(options.statusDetailsFrom ?? DEFAULT_DETAILS_FROM),
    logRequest: options.requestLog === false ? () => {} : requestLog.request,
    port,
    host,
    ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
    ...(options.idleTimeout === undefined ? {} : { idleSeconds: options.idleTimeout }),
    ...(options.maxKeyFailures === undefined
      ? {}
      : { failedKeys: failedKeyLimit(options.maxKeyFailures, 60) }),
  });
  if (!baseUrl && running.url !== listening) {
    // Port 0: the address is known only now; the OpenAPI document and GBFS files name it.
    const named = withBaseUrl(live.release, dataset, { baseUrl: running.url, staticUpdatedAt });
    live.release = await compressRelease(named, { budget: "build", previous: live.release });
  }
  let letGo = () => {};
  if (options.out) {
    // Answers come from memory from now on; /status says the tree holds no whole release yet
    // (minutes at a million stations).
    live.tree = { path: options.out, release: null, error: null };
    log(`answering at ${running.url} while the tree is written to ${options.out}`);
    try {
      // From now on this server alone writes the tree: a cron refresh or a build of it is refused.
      // Marked under the writers' lock, which they check it under: none slips in before the mark.
      const written = await writeTree(live.release, options.out, {
        onLocked: (layout) => {
          letGo = keepTree(layout);
        },
      });
      for (const folder of written.stuck ?? []) log(stuckSaid(folder), "warning");
    } catch (cause) {
      // An --out it may not write (a folder of other files, no permission, another server's):
      // nothing is served, and nothing is left listening or watching to keep the process alive.
      letGo();
      await running.close();
      keys.close();
      await requestLog.flush();
      throw cause;
    }
    live.tree = { path: options.out, release: live.release.id, error: null };
  }
  // No closure reads `initial`: the start's read (its records and the file's text, ~75 MB at
  // 100,000 stations) would be kept as long as the server runs, where the first source lets it go
  // once it reads the file as bytes. An edit's source reads it whole, against its own stations.
  const statesFor = (read: StaticRead, known?: KnownStates) =>
    options.simulate
      ? simulator(random, seconds)
      : stateFile(statePath, read, { maxMissingShare, log, ...(known ? { known } : {}) });
  const source = statesFor(staticRead, initial.known);
  const staticFiles = staticFilesOf(live.release.files);
  const refresher = startRefresher({
    live,
    dataset,
    cache: first.cache,
    staticFiles,
    source,
    seconds,
    out: options.out,
    log,
    staticSource: {
      reloads,
      statesFor: (read) => statesFor(read),
      portalBaseUrl: baseUrl ?? null,
    },
  });

  log(
    `serving ${counted(release.counts.stations, "station")} of ${counted(release.counts.contracts, "contract")} at ${running.url}, refreshed every ${seconds} s from ${source.name}`,
  );
  if (kept)
    log(
      `the GBFS discovery files and the OpenAPI document name ${kept}, the base URL the tree at ${options.out} was made with (give --base-url to change it)`,
    );
  if (!baseUrl && ANY_ADDRESS.has(host))
    log(
      `warning: the GBFS discovery files and the OpenAPI document name ${running.url}, which no other machine can reach: give --base-url (the public address clients use)`,
      "warning",
    );
  // A base URL with a path is right behind a proxy that takes it off, and wrong without one.
  const prefix = baseUrl ? new URL(baseUrl).pathname.replace(/\/+$/, "") : "";
  if (prefix)
    log(
      `the base URL ${baseUrl} has a path, ${prefix}: the links published under it reach this server only through a proxy that takes ${prefix} off (this server answers at /)`,
    );
  const heapWarning = heapRoomWarning();
  if (heapWarning) log(heapWarning, "warning");
  if (options.demoKey) {
    log(`demo key enabled: ${DEMO_KEY} (do not use --demo-key in production)`, "warning");
    for (const line of curlExamples(running.url, DEMO_KEY, dataset)) say(line);
  }

  return {
    ...running,
    log,
    refreshNow: refresher.refreshOutOfTurn,
    async stop() {
      // Stop listening first and at once: a refresh in progress must not keep accepting clients.
      const closed = running.close();
      await refresher.stop();
      letGo();
      keys.close();
      await closed;
      await requestLog.flush();
    },
  };
}

const NOT_STARTED = "the server was not started";

// Listening on every interface: the address is no place a client can be sent to.
const ANY_ADDRESS = new Set(["0.0.0.0", "::", "[::]"]);

/** Requests to try, of the data served: its first contract and station, a parking contract. */
function curlExamples(url: string, key: string, dataset: Dataset): string[] {
  const contract = dataset.contracts[0]?.name;
  const station = dataset.stations.find((each) => each.contract === contract)?.number;
  const parking = dataset.contracts.find((each) => each.parkingApi)?.name;
  const keyed = (path: string) =>
    `  curl '${url}${path}${path.includes("?") ? "&" : "?"}apiKey=${key}'`;
  // Any spelling of a contract's name is found: shown in capitals once.
  const capitalised = contract && contract.charAt(0).toUpperCase() + contract.slice(1);
  return [
    `open ${url}/ in a browser: the portal (contracts, maps, live totals; the API reference at /docs/)`,
    "try:",
    keyed("/vls/v3/contracts"),
    ...(contract
      ? [
          keyed(`/vls/v3/stations?contract=${capitalised}`),
          ...(station === undefined
            ? []
            : [keyed(`/vls/v3/stations/${station}?contract=${contract}`)]),
          keyed(`/vls/v1/stations?contract=${contract}`),
        ]
      : []),
    ...(parking ? [keyed(`/parking/v1/contracts/${parking}/parks`)] : []),
    `  curl -O '${url}/download/velodata-static.zip'`,
    `  curl '${url}/gbfs/manifest.json'`,
    ...(contract ? [`  curl '${url}/contracts/${contract}/gbfs/v3/station_status.json'`] : []),
    `  curl '${url}/openapi.json'`,
    `  curl '${url}/status'`,
  ];
}
