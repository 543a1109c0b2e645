// `velodata publish`: uploads what changed in a built tree to an S3-API store. The adapter from today's tree to the publisher.

import { type PublishPreview, previewPublish } from "../host/object-storage/dry-run.js";
import type { ObjectStore } from "../host/object-storage/object-store.js";
import { objectKey } from "../host/object-storage/plan.js";
import { publishAnswers } from "../host/object-storage/publish-answers.js";
import type { PublishedAnswer } from "../host/object-storage/published-answer.js";
import { parseS3Url, s3Store } from "../host/object-storage/s3-store.js";
import { isLoopback } from "../publish/default-base-url.js";
import { matchRoute } from "../routes/match-route.js";
import { accessOf } from "../routes/routes.js";
import { formatBytes, type Output, terminalOutput, throttled } from "./output.js";
import { describePlan, forLater, KEYED, keyedPublic, RESUMED } from "./publish-plan.js";
import { treeAnswers } from "./publish-tree-answers.js";
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
   * `--keep-removed`: seconds an object that left the release stays in the store before a run
   * deletes it, so that a list or discovery file a cache still holds links to no deleted object.
   * Default: the longest max-age of this run's objects. Keyed answers deleted for want of
   * --include-keyed go at once, whatever it says.
   */
  keepRemoved?: number;
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
  /** Objects that left the release, kept up for now: a later run deletes them. */
  keptForLater: number;
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
  const { answers, keyed, store, prefix, keepRemoved } = await prepare(options, output);
  const forgetStop = sayWhenStopped(() => PUBLISH_STOPPED);
  const stats = await publishAnswers(answers, {
    store,
    prefix,
    keepRemoved,
    atOnce: keyed.leftOut,
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    beforeWrites: (plan, listed) =>
      warnKeyedPublic(output, keyed, plan.uploads.flat(), [...listed.keys()]),
    onProgress: throttled(100, (done, total) => output.progress(`uploading ${done}/${total}…`)),
  }).finally(forgetStop);
  output.progress("");
  const seconds = (performance.now() - started) / 1000;
  const keyedGone = stats.deleted.filter(keyed.leftOut).length;
  const resumed = stats.resumed > 0 ? ` (${stats.resumed} ${RESUMED})` : "";
  const deleted = keyedGone > 0 ? ` (${keyedGone} ${KEYED})` : "";
  const kept =
    stats.keptForLater > 0 ? `, ${stats.keptForLater} kept ${forLater(keepRemoved)}` : "";
  output.info(
    `published ${options.out} to ${options.to}: ${stats.uploaded} uploaded${resumed}, ` +
      `${stats.deleted.length} deleted${deleted}${kept}, ${stats.unchanged} unchanged, ` +
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
  const { answers, keyed, store, prefix, keepRemoved } = await prepare(options, output);
  output.progress("reading the store and the tree…");
  const preview = await previewPublish(answers, {
    store,
    prefix,
    concurrency: options.concurrency ?? 16,
    removal: { now: new Date(), keepRemoved, atOnce: keyed.leftOut },
  });
  output.progress("");
  const listed = [...preview.unchanged, ...preview.puts.filter((put) => !put.isNew)];
  warnKeyedPublic(
    output,
    keyed,
    preview.puts,
    listed.map(({ key }) => key),
  );
  const verbose = options.verbose ?? false;
  const lines = describePlan(preview, {
    to: options.to,
    verbose,
    keyed: keyed.leftOut,
    keepRemoved,
  });
  for (const line of lines) output.info(line);
  return preview;
}

/**
 * Says that keyed answers go up where anyone reads them, when some do (`puts`) and the store lists
 * none yet (`listed`): the first run with --include-keyed says it, not every run from cron.
 */
function warnKeyedPublic(
  output: Output,
  keyed: KeyedKeys,
  puts: readonly { key: string }[],
  listed: readonly string[],
): void {
  const putsKeyed = puts.filter(({ key }) => keyed.any(key)).length;
  if (putsKeyed > 0 && !listed.some(keyed.any)) output.warn(keyedPublic(putsKeyed));
}

/** The object keys of keyed answers: any (`any`), and those this run leaves out (`leftOut`). */
interface KeyedKeys {
  any(key: string): boolean;
  /** Without --include-keyed: deleted at once, kept for no one (see Removal's atOnce). */
  leftOut(key: string): boolean;
}

/**
 * What a run and a dry run share: the tree's answers to publish, checked, which object keys are
 * keyed answers', the store, and how long an object that left the release is kept.
 */
async function prepare(
  options: PublishOptions,
  output: Output,
): Promise<{
  answers: PublishedAnswer[];
  keyed: KeyedKeys;
  store: ObjectStore;
  prefix: string;
  keepRemoved: number;
}> {
  const location = parseS3Url(options.to);
  const { answers, keyedPaths, baseUrl, longestMaxAge } = await treeAnswers(options);
  // Published, such links lead every consumer to its own machine.
  if (baseUrl && isLoopback(baseUrl))
    output.warn(
      `warning: the tree at ${options.out} names ${baseUrl} as the API's address, a loopback address no consumer reaches (its GBFS feeds and OpenAPI document link there); ` +
        "run velodata refresh (or build) with --base-url https://… (the public address), then publish again",
    );
  const store = options.store ?? s3Store({ ...location, ...pick(options) });
  const inTree = new Set(keyedPaths.map((urlPath) => objectKey(location.prefix, urlPath)));
  // A key the tree no longer holds may be a keyed answer all the same, put up by a run with
  // --include-keyed: the route table says which.
  const any = (key: string) => inTree.has(key) || isKeyedRoute(key, location.prefix);
  const leftOut = (key: string) => !options.includeKeyed && any(key);
  return {
    answers,
    keyed: { any, leftOut },
    store,
    prefix: location.prefix,
    keepRemoved: options.keepRemoved ?? longestMaxAge,
  };
}

/** Whether an object key under the prefix is where a keyed route's answer goes (see objectKey). */
function isKeyedRoute(key: string, prefix: string): boolean {
  const under = prefix === "" ? "" : `${prefix}/`;
  if (!key.startsWith(under)) return false;
  const match = matchRoute(key.slice(under.length).split("/"), new URLSearchParams(), false);
  return match.kind === "endpoint" && accessOf(match.endpoint) === "key";
}

const pick = ({ endpoint, region }: PublishOptions) => ({
  ...(endpoint ? { endpoint } : {}),
  ...(region ? { region } : {}),
});
