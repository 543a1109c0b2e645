// The answers of a built tree as `velodata publish` puts them up: read from its manifest and
// files, each with the headers its object is stored with, its bytes read only while the tree is
// still the one whose manifest was read.

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { UserError } from "../errors.js";
import type {
  AnswerKind,
  PublishedAnswer,
  Variant,
} from "../host/object-storage/published-answer.js";
import { matchRoute } from "../routes/match-route.js";
import { DEFAULT_REFRESH_SECONDS, keptAs, STATIC_MAX_AGE } from "../routes/max-age.js";
import { accessOf, dispositionOf, type Endpoint, fileOf, routeOf } from "../routes/routes.js";
import type { ManifestEntry } from "../tree/manifest.js";
import { readTree } from "../tree/read-tree.js";
import { unchangedSince } from "../tree/unchanged-since.js";
import type { PublishOptions } from "./publish.js";

/**
 * The answers of the tree at `out` that go up: the public ones, and the keyed ones when asked;
 * the paths of the keyed ones, asked or not; and the longest max-age the answers are sent with.
 */
export async function treeAnswers(
  options: Pick<PublishOptions, "out" | "includeKeyed" | "maxAge" | "gzip">,
): Promise<{
  answers: PublishedAnswer[];
  keyedPaths: string[];
  baseUrl: string | undefined;
  longestMaxAge: number;
}> {
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
  // The tree's refresh period, its station_status ttl: kept longer, an object outlives it.
  const dynamicMaxAge = options.maxAge ?? tree.manifest.refreshSeconds ?? DEFAULT_REFRESH_SECONDS;
  const answers: PublishedAnswer[] = [];
  const keyedPaths: string[] = [];
  for (const [urlPath, entry] of Object.entries(tree.manifest.files)) {
    const { etag, type } = entry;
    const endpoint = endpointOf(urlPath, options.out);
    if (accessOf(endpoint) === "key") {
      keyedPaths.push(urlPath);
      if (!options.includeKeyed) continue;
    }
    const file = join(tree.release.tree, fileOf(urlPath));
    const maxAge = keptAs(routeOf(endpoint)) === "dynamic" ? dynamicMaxAge : STATIC_MAX_AGE;
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
  return {
    answers,
    keyedPaths,
    baseUrl: tree.manifest.baseUrl,
    longestMaxAge: Math.max(dynamicMaxAge, STATIC_MAX_AGE),
  };
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
