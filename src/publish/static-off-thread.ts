// The static answers (contracts, parkings, downloads, GBFS static feeds, OpenAPI, the portal) of a
// build, or of a cron refresh that renders everything, rendered by a worker thread while the
// command's thread renders the station answers. The worker gets a copy of the static records
// (contracts, stations, parkings; no states) and renders into shared memory, which it hands back
// with no copy. At a million stations (~80 s of station answers, then ~60 s of static ones on one
// thread) two builds each way: 216–218 s and 7.3–7.4 GB of peak RSS against 227–262 s and
// 8.0–8.2 GB. Less than the two renders' overlap promised: the cores were not idle meanwhile (the
// thread writing the station files spends most of its time in the kernel), and both renders run
// slower side by side. At 100,000 stations the time is within the noise.
import { existsSync } from "node:fs";
import type { Dataset } from "../source/dataset.js";
import { workerAnswer } from "../worker-answer.js";
import { type Encode, encodedInChunks, encodedTogether } from "./encoded-together.js";
import { type Published, type PublishOptions, publish, publishStatic } from "./publish.js";
import type { ReleaseFile } from "./release.js";

// Compiled beside this module; absent when running from the TypeScript sources (tests).
const WORKER = new URL("./static-worker.js", import.meta.url);

/** What the worker renders from: the dataset's static part and the options the answers name. */
export interface StaticJob {
  dataset: Omit<Dataset, "states">;
  options: Pick<
    PublishOptions,
    | "generatedAt"
    | "baseUrl"
    | "portalBaseUrl"
    | "staticUpdatedAt"
    | "dataUpdatedAt"
    | "refreshSeconds"
  >;
  /**
   * How the answers are encoded: in big chunks for a process that exits once it has written them,
   * one buffer per answer part for a server, which keeps them until its next edit of the source
   * (see encoded-together.ts). Shared memory both ways: handed back with no copy.
   */
  encoding: StaticEncoding;
}

export type StaticEncoding = "chunks" | "together";

/** The Encode of a job's `encoding`, made anew for each job (chunks are filled one job at a time). */
export const encodeFor = (encoding: StaticEncoding): Encode =>
  encoding === "together" ? encodedTogether : encodedInChunks();

/** The answers in publishStatic's order, or why there are none. */
export type StaticReply = { files: [string, ReleaseFile][] } | { error: string };

/**
 * publishStatic's answers, from a worker thread; in this one when the compiled worker is not
 * there. Encoded into big shared chunks by default (encodedInChunks), for a process that exits
 * once it has written them; a server asks for `together`.
 */
export async function publishStaticOffThread(
  dataset: Dataset,
  options: StaticJob["options"],
  encoding: StaticEncoding = "chunks",
): Promise<Map<string, ReleaseFile>> {
  if (!existsSync(WORKER))
    return publishStatic(dataset, { ...options, encode: encodeFor(encoding) });
  const { contracts, stations, parkings, portal } = dataset;
  const { generatedAt, baseUrl, portalBaseUrl, staticUpdatedAt, dataUpdatedAt, refreshSeconds } =
    options;
  const job: StaticJob = {
    dataset: { contracts, stations, parkings, portal },
    options: {
      generatedAt,
      baseUrl,
      ...(portalBaseUrl === undefined ? {} : { portalBaseUrl }),
      staticUpdatedAt,
      dataUpdatedAt,
      refreshSeconds,
    },
    encoding,
  };
  const reply = await workerAnswer<StaticReply>(WORKER, "the static answers' worker", {
    workerData: job,
  });
  if ("error" in reply) throw new Error(`rendering the static answers: ${reply.error}`);
  return new Map(reply.files);
}

/** publish, the static answers rendered by a worker thread meanwhile (publishStaticOffThread). */
export function publishOffThread(dataset: Dataset, options: PublishOptions): Promise<Published> {
  const staticFiles = publishStaticOffThread(dataset, options);
  staticFiles.catch(() => {}); // awaited by publish, once the station answers are made
  return publish(dataset, options, staticFiles);
}
