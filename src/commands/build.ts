// `velodata build`: source folder → validated Dataset → Release → tree on disk, swapped in whole.
import { join } from "node:path";
import { counted, nounFor } from "../plural.js";
import { writeSiblingsOffThread } from "../publish/compression-worker.js";
import { encodedInChunks } from "../publish/encoded-together.js";
import { DEFAULT_BASE_URL, type Published } from "../publish/publish.js";
import { publishOffThread } from "../publish/static-off-thread.js";
import { stationListLayouts } from "../publish/station-files.js";
import { DEFAULT_REFRESH_SECONDS } from "../routes/max-age.js";
import { staticSourceFingerprint } from "../source/source-fingerprint.js";
import { staticSourceTimes } from "../source/source-time.js";
import { STATES_FILE } from "../source/states-file.js";
import { StepTimes } from "../step-times.js";
import { statesSeen } from "../tree/accepted-states.js";
import { refuseInsideTree } from "../tree/inside-tree.js";
import { layoutOf } from "../tree/layout.js";
import { refuseIfKept } from "../tree/lock.js";
import { removeDetached } from "../tree/remove-detached.js";
import { stuckSaid } from "../tree/stuck-releases.js";
import { refuseForeignOut, writeTreeAsMade } from "../tree/write-tree.js";
import { saveRefreshState } from "./incremental-refresh.js";
import { formatBytes, type Output, terminalOutput, throttled } from "./output.js";
import { readValidDataset } from "./read-source.js";
import { warnIfDatasetStalled } from "./stalled-feed.js";

export interface BuildOptions {
  source: string;
  out: string;
  /** States file; default `<source>/states.json`. */
  state?: string;
  /** The public base URL of the API, named by the OpenAPI document and the GBFS files; default DEFAULT_BASE_URL. */
  baseUrl?: string;
  /** Seconds between the tree's refreshes (cron's interval): the GBFS station_status ttl; default 60. */
  refreshSeconds?: number;
  /** The time the release is stamped with; a parameter so that tests control it. */
  now?: Date;
  /** Also say where the process's time went (StepTimes), after the summary. */
  timings?: boolean;
  /** A station not reported for this long is stale (default 15); see warnIfStalled. */
  staleMinutes?: number;
  /** Warn past this share of stale stations (a percent, default 25). */
  maxStale?: number;
  output?: Output;
}

export interface BuildSummary {
  release: string;
  contracts: number;
  stations: number;
  parkings: number;
  files: number;
  bytes: number;
  seconds: number;
}

export async function build(options: BuildOptions): Promise<BuildSummary> {
  const output = options.output ?? terminalOutput();
  const started = performance.now();
  const steps = new StepTimes();
  refuseInsideTree(options.source, "--source");
  if (options.state) refuseInsideTree(options.state, "--state");
  // Said before the source is read (minutes at a million stations); the lock decides for good.
  refuseIfKept(layoutOf(options.out));
  refuseForeignOut(options.out);
  const refreshSeconds = options.refreshSeconds ?? DEFAULT_REFRESH_SECONDS;
  output.progress("reading source…");
  // Taken before reading, for the next cron refresh (see refresh.ts).
  const { fingerprint, seen: sourceSeen } = staticSourceFingerprint(options.source);
  const statesFile = options.state ?? join(options.source, STATES_FILE);
  const states = statesSeen(statesFile);
  const { dataset, staticRead } = await readValidDataset(options.source, options.state, output);
  steps.ended("read");

  output.progress("rendering…");
  const generatedAt = options.now ?? new Date();
  // This thread renders the station answers while a worker renders the static ones; the files
  // that get no compressed siblings (each station's, 2 million at a million stations) are written
  // by a third thread as they are made.
  let published: Published | undefined;
  const onProgress = throttled(100, (done, total) =>
    output.progress(`writing ${done}/${total} ${nounFor(total, "file")}…`),
  );
  const tree = await writeTreeAsMade(
    options.out,
    async (early, siblings) => {
      published = await publishOffThread(dataset, {
        generatedAt,
        baseUrl: options.baseUrl,
        refreshSeconds,
        ...staticSourceTimes(options.source),
        onStationFiles: early,
        encode: encodedInChunks(), // this process exits once they are written
      });
      // The station files written meanwhile by another thread, as they were made, count here.
      steps.ended("render");
      output.progress("compressing and writing…");
      const { release, cache } = published;
      // The variants become the tree's `.gz`/`.br` siblings, the bytes a web server in front sends,
      // made in the thread pool and written by a worker thread while the other files are written;
      // the lists of all stations made of their contracts' lists, compressed once.
      const layouts = stationListLayouts(dataset.stations) ?? [];
      const compressing = writeSiblingsOffThread(release.files, "build", siblings, layouts);
      // The next cron refresh's state goes in the new release folder while the variants are made
      // (its paths and id are the release's with or without them): at a million stations ~20 s
      // that once came after the switch, while this thread only waited.
      const beside = (folder: string) =>
        saveRefreshState(
          { release, dataset, stations: cache, staticRead },
          {
            out: options.out,
            baseUrl: options.baseUrl ?? DEFAULT_BASE_URL,
            refreshSeconds,
            fingerprint,
            sourceSeen,
            states,
            folder,
          },
        );
      return { release, compressing, beside };
    },
    // The release it replaced is removed by a process of its own: this one is done at the switch.
    { onProgress, steps, removeReplaced: removeDetached },
  );
  if (!published) throw new Error("bug: the tree was written without a release");
  const { release } = published;
  output.progress("");

  const summary: BuildSummary = {
    release: release.id,
    ...release.counts,
    files: tree.files,
    bytes: tree.bytes,
    seconds: (performance.now() - started) / 1000,
  };
  const leftovers = tree.leftovers
    ? `; ${counted(tree.leftovers, "leftover release folder")} (a stopped build's) handed to a remover`
    : "";
  output.info(
    `built ${options.out}: ${counted(summary.contracts, "contract")}, ${counted(summary.stations, "station")}, ${counted(summary.parkings, "parking")}` +
      ` → ${counted(summary.files, "answer")}, ${formatBytes(summary.bytes)} in ${summary.seconds.toFixed(1)} s (release ${summary.release})${leftovers}`,
  );
  for (const folder of tree.stuck ?? []) output.warn(`warning: ${stuckSaid(folder)}`);
  // Published as given (a build may be of an archive), but said: the cron refreshes after it
  // would warn every minute of a feed stalled already.
  warnIfDatasetStalled(dataset, statesFile, options, generatedAt, output, "build");
  // Said after the summary, where it is read: a tree published as it is would send every GBFS
  // consumer and "Try it out" to their own machine.
  if (options.baseUrl === undefined)
    output.warn(
      `warning: no --base-url: the GBFS discovery files and the OpenAPI document name ${DEFAULT_BASE_URL}, which no other machine can reach; give --base-url https://… (the public address) for a tree to publish`,
    );
  // Removed by this process's threads only where no process of its own could be started.
  if (tree.replaced instanceof Promise) {
    output.progress("removing the release it replaced…");
    await tree.replaced;
    output.progress("");
  }
  steps.ended("write");
  if (options.timings) output.info(steps.line());
  return summary;
}
