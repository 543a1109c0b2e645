// `velodata publish`: uploads what changed in a built tree to an S3-API store. The adapter from today's tree to the publisher.

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { UserError } from "../errors.js";
import { type PublishPreview, previewPublish } from "../host/object-storage/dry-run.js";
import type { ObjectStore } from "../host/object-storage/object-store.js";
import { objectKey } from "../host/object-storage/plan.js";
import { publishAnswers } from "../host/object-storage/publish-answers.js";
import type {
  AnswerKind,
  PublishedAnswer,
  Variant,
} from "../host/object-storage/published-answer.js";
import { parseS3Url, s3Store } from "../host/object-storage/s3-store.js";
import { isLoopback } from "../publish/default-base-url.js";
import { matchRoute } from "../routes/match-route.js";
import { DEFAULT_REFRESH_SECONDS, keptAs, STATIC_MAX_AGE } from "../routes/max-age.js";
import { accessOf, dispositionOf, type Endpoint, fileOf, routeOf } from "../routes/routes.js";
import type { ManifestEntry } from "../tree/manifest.js";
import { readTree } from "../tree/read-tree.js";
import { unchangedSince } from "../tree/unchanged-since.js";
import { formatBytes, type Output, terminalOutput, throttled } from "./output.js";
import { describePlan, KEYED, RESUMED } from "./publish-plan.js";
import { sayWhenStopped } from "./said-when-stopped.js";

export interface PublishOptions {
  out: string;
  /** `s3://BUCKET/PREFIX`. */
  to: string;
  endpoint?: string;
  region?: string;
  /** Also upload the keyed API; the CDN must then check the keys. */
  includeKeyed?: boolean;
  /**
   * Cache-Control max-age of the dynamic answers, in seconds: the refresh interval. `publish` runs
   * right after each `refresh`, so an answer uploaded then expires when the next refresh lands.
   * Default: the period the tree records (its GBFS station_status ttl), else 60.
   */
  maxAge?: number;
  concurrency?: number;
  /**
   * `--gzip`: store each answer's gzip variant where the tree has one, with `Content-Encoding:
   * gzip`. A store answers the same bytes to every client, whether it asked for gzip or not (curl,
   * Python's urllib, R's read.csv do not), so the plain bytes go up unless asked: a CDN in front
   * compresses them for those that ask.
   */
  gzip?: boolean;
  /** `--dry-run`: reads the tree and the store and prints the plan; writes nothing (see publishDryRun). */
  dryRun?: boolean;
  /** With dryRun: every path of the plan, not the first few of each kind. */
  verbose?: boolean;
  output?: Output;
  /** The store to publish to; by default the S3 client for `to`. For tests. */
  store?: ObjectStore;
}

export interface PublishSummary {
  uploaded: number;
  /** Of those, the ones a publish that did not finish left pending. */
  resumed: number;
  deleted: number;
  unchanged: number;
  bytes: number;
  seconds: number;
}

/** What a publish stopped by SIGINT or SIGTERM leaves (see publishAnswers). */
export const PUBLISH_STOPPED =
  "publish stopped; each object in the store holds its old or its new bytes, whole, and the next run completes this one";

export async function publish(options: PublishOptions): Promise<PublishSummary> {
  const output = options.output ?? terminalOutput();
  const started = performance.now();
  const { answers, keyed, store, prefix } = await prepare(options, output);
  const forgetStop = sayWhenStopped(() => PUBLISH_STOPPED);
  const stats = await publishAnswers(answers, {
    store,
    prefix,
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    onProgress: throttled(100, (done, total) => output.progress(`uploading ${done}/${total}…`)),
  }).finally(forgetStop);
  output.progress("");
  const seconds = (performance.now() - started) / 1000;
  const keyedGone = stats.deleted.filter((key) => keyed.has(key)).length;
  const resumed = stats.resumed > 0 ? ` (${stats.resumed} ${RESUMED})` : "";
  const deleted = keyedGone > 0 ? ` (${keyedGone} ${KEYED})` : "";
  output.info(
    `published ${options.out} to ${options.to}: ${stats.uploaded} uploaded${resumed}, ` +
      `${stats.deleted.length} deleted${deleted}, ${stats.unchanged} unchanged, ` +
      `${formatBytes(stats.bytes)} in ${seconds.toFixed(1)} s`,
  );
  return { ...stats, deleted: stats.deleted.length, seconds };
}

/**
 * `publish --dry-run`: everything `publish` does before its first write (the tree read and
 * checked, the store listed with the credentials given, the plan made), then the plan printed.
 * Nothing is written: no object, no receipt.
 */
export async function publishDryRun(options: PublishOptions): Promise<PublishPreview> {
  const output = options.output ?? terminalOutput();
  const { answers, keyed, store, prefix } = await prepare(options, output);
  output.progress("reading the store and the tree…");
  const preview = await previewPublish(answers, {
    store,
    prefix,
    concurrency: options.concurrency ?? 16,
  });
  output.progress("");
  const verbose = options.verbose ?? false;
  for (const line of describePlan(preview, { to: options.to, verbose, keyed })) output.info(line);
  return preview;
}

/**
 * What a run and a dry run share: the tree's answers to publish, checked, the object keys of the
 * keyed ones left out (without --include-keyed), and the store.
 */
async function prepare(
  options: PublishOptions,
  output: Output,
): Promise<{
  answers: PublishedAnswer[];
  keyed: Set<string>;
  store: ObjectStore;
  prefix: string;
}> {
  const location = parseS3Url(options.to);
  const { answers, keyedPaths, baseUrl } = await treeAnswers(options);
  // Published, such links lead every consumer to its own machine.
  if (baseUrl && isLoopback(baseUrl))
    output.warn(
      `warning: the tree at ${options.out} names ${baseUrl} as the API's address, a loopback address no consumer reaches (its GBFS feeds and OpenAPI document link there); ` +
        "run velodata refresh (or build) with --base-url https://… (the public address), then publish again",
    );
  const store = options.store ?? s3Store({ ...location, ...pick(options) });
  const keyed = new Set(keyedPaths.map((urlPath) => objectKey(location.prefix, urlPath)));
  return { answers, keyed, store, prefix: location.prefix };
}

const pick = ({ endpoint, region }: PublishOptions) => ({
  ...(endpoint ? { endpoint } : {}),
  ...(region ? { region } : {}),
});

/**
 * The answers of the tree at `out` that go up: the public ones, and the keyed ones when asked
 * (else their paths).
 */
async function treeAnswers(
  options: PublishOptions,
): Promise<{ answers: PublishedAnswer[]; keyedPaths: string[]; baseUrl: string | undefined }> {
  const tree = readTree(options.out);
  if (!tree.manifest && tree.otherFormat !== null)
    throw new UserError(
      `the tree at ${options.out} was written by another version of velodata (its manifest has format ${tree.otherFormat})`,
      [
        `run velodata refresh or velodata build --out ${options.out} once to rewrite it, then publish again`,
      ],
    );
  if (!tree.manifest)
    throw new UserError(
      `the tree at ${options.out} is being updated or its last update was interrupted`,
      ["run velodata refresh (or build) to complete it, then publish again"],
    );
  // Checked after each file is read: a refresh or build since would have this run put up a
  // list of the new tree that names an answer of it this run's plan does not upload.
  const read = (file: string) =>
    readAnswer(file, () => unchangedSince(tree, options.out), options.out);
  const answers: PublishedAnswer[] = [];
  const keyedPaths: string[] = [];
  for (const [urlPath, entry] of Object.entries(tree.manifest.files)) {
    const { etag, type } = entry;
    const endpoint = endpointOf(urlPath, options.out);
    if (accessOf(endpoint) === "key" && !options.includeKeyed) {
      keyedPaths.push(urlPath);
      continue;
    }
    const file = join(tree.release.tree, fileOf(urlPath));
    const maxAge =
      keptAs(routeOf(endpoint)) === "dynamic"
        ? // The tree's refresh period, its station_status ttl: kept longer, an object outlives it.
          (options.maxAge ?? tree.manifest.refreshSeconds ?? DEFAULT_REFRESH_SECONDS)
        : STATIC_MAX_AGE;
    const disposition = dispositionOf(routeOf(endpoint));
    answers.push({
      urlPath,
      etag,
      kind: kindOf(endpoint),
      contentType: type,
      cacheControl: `public, max-age=${maxAge}`,
      ...(disposition ? { contentDisposition: disposition } : {}),
      read: () => read(file),
      ...(options.gzip ? { variants: variantsOf(entry, file, read) } : {}),
    });
  }
  return { answers, keyedPaths, baseUrl: tree.manifest.baseUrl };
}

function endpointOf(urlPath: string, out: string): Endpoint {
  const segments = urlPath.split("/").filter(Boolean).map(decodeURIComponent);
  const match = matchRoute(segments, new URLSearchParams(), urlPath.endsWith("/"));
  if (match.kind !== "endpoint")
    throw new UserError(`the tree at ${out} holds ${urlPath}, which this velodata does not know`, [
      "build the tree again with this version of velodata",
    ]);
  return match.endpoint;
}

const SIBLING = { gzip: ".gz", br: ".br" } as const;

/** The siblings the manifest lists; none (identity bytes go up) when it lists none. */
function variantsOf(
  entry: ManifestEntry,
  file: string,
  read: (file: string) => Promise<Uint8Array>,
): Variant[] {
  const listed: Partial<NonNullable<ManifestEntry["variants"]>> = entry.variants ?? {};
  return (["gzip", "br"] as const).flatMap((encoding) => {
    const variant = listed[encoding];
    if (!variant) return [];
    const sibling = `${file}${SIBLING[encoding]}`;
    return [{ encoding, etag: variant.etag, read: () => read(sibling) }];
  });
}

/** Answers come before the lists that name them, and those before discovery files. */
function kindOf(endpoint: Endpoint): AnswerKind {
  return routeOf(endpoint).role ?? "answer";
}

/** The file's bytes, read while the tree is still the one whose manifest was read (`asRead`). */
async function readAnswer(file: string, asRead: () => boolean, out: string): Promise<Uint8Array> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (cause) {
    // Gone since the manifest was read: a refresh or build of the tree ran meanwhile. What is up
    // is whole (the receipt marks the rest pending), and the next run publishes the new tree.
    const gone = (cause as NodeJS.ErrnoException).code === "ENOENT";
    throw new UserError(
      gone
        ? `cannot read ${file}: it left the tree while it was being published (a refresh or build meanwhile?), or was deleted`
        : `cannot read ${file}: ${(cause as Error).message}`,
      gone
        ? [
            "run velodata publish again; publish after each refresh, never at the same time (see docs/object-storage.md)",
            "if it fails so again, the tree lacks a file its manifest lists: velodata refresh repairs it",
          ]
        : [],
      { cause },
    );
  }
  // What this run put up so far is the tree it planned, whole; the receipt marks the rest pending.
  if (!asRead())
    throw new UserError(
      `the tree at ${out} changed while it was being published (a refresh or build meanwhile): stopped before uploading any file of the new tree`,
      [
        "run velodata publish again: it publishes the new tree and completes this run",
        "publish after each refresh, never at the same time: run both under one flock (see docs/object-storage.md)",
      ],
    );
  return bytes;
}
