// The public view of a tree on disk, for whatever works from it (refresh, uploads, server configs).
import { existsSync, lstatSync, readdirSync } from "node:fs";
import { UserError } from "../errors.js";
import {
  currentRelease,
  layoutOf,
  type ReleasePaths,
  refuseReleaseFolder,
  releasePaths,
  type TreeLayout,
} from "./layout.js";
import { isLegacyTree } from "./legacy.js";
import { type Manifest, otherManifestFormat, readManifest, recordedBaseUrl } from "./manifest.js";
import { baseUrlNamedIn } from "./named-base-url.js";

export interface Tree {
  layout: TreeLayout;
  /** The served folder's real path (the published symlink leads there) and its bookkeeping. */
  release: ReleasePaths;
  /** Null when the last update was interrupted or its manifest is unreadable: trust no file then. */
  manifest: Manifest | null;
  /** The manifest's ctime: a file of the tree changed later was changed behind velodata's back. */
  sealedAt: number;
  /** A refresh was interrupted (killed, or a failure while moving files in): the tree may be mixed. */
  interrupted: boolean;
  /** The manifest's format when another velodata wrote it (not trusted either), else null. */
  otherFormat: number | null;
}

/**
 * Reads what `--out` holds: the release folder it serves and its manifest. Throws a UserError
 * saying what to do when there is no velodata tree there. The manifest is null when the tree
 * cannot be trusted as described; readers that publish it elsewhere should then refuse.
 */
export function readTree(out: string): Tree {
  const layout = layoutOf(out);
  const name = currentRelease(layout);
  if (name === null) {
    const exists = lstatSync(layout.published, { throwIfNoEntry: false });
    if (exists?.isDirectory() && isLegacyTree(layout.published)) {
      throw new UserError(`${out} holds a tree written by an older velodata`, [
        `run velodata build --out ${out} once to convert it`,
      ]);
    }
    refuseReleaseFolder(layout.published);
    // What to do depends on what is there: a build refuses a file, and a folder of other files.
    if (exists && !exists.isDirectory())
      throw new UserError(`no velodata tree at ${out}: it is a file`, [
        "give the folder a velodata build wrote (its --out)",
      ]);
    if (exists && readdirSync(layout.published).length > 0)
      throw new UserError(`no velodata tree at ${out}: the folder holds other files`, [
        "give the folder a velodata build wrote (its --out)",
      ]);
    throw new UserError(`no velodata tree at ${out}`, [`run velodata build --out ${out} first`]);
  }
  const release = releasePaths(layout, name);
  if (!existsSync(release.tree)) {
    throw new UserError(`the tree at ${out} is missing its release folder ${release.tree}`, [
      `run velodata build --out ${out} again`,
    ]);
  }
  const read = readManifest(release.manifest);
  const interrupted = existsSync(release.dirty) || read === null;
  return {
    layout,
    release,
    manifest: interrupted ? null : (read?.manifest ?? null),
    sealedAt: read?.sealedAt ?? 0,
    interrupted,
    otherFormat: read === null ? otherManifestFormat(release.manifest) : null,
  };
}

/** The base URL the tree published at `out` was made with, if it is a tree of ours that says. */
export function recordedBaseUrlOf(out: string): string | undefined {
  const layout = layoutOf(out);
  const name = currentRelease(layout);
  if (name === null) return undefined;
  return releaseBaseUrl(releasePaths(layout, name));
}

/**
 * The base URL a release was made with: its manifest's, in whatever format or state; an older
 * velodata's manifest records none, and its answers still name it.
 */
export function releaseBaseUrl(release: ReleasePaths): string | undefined {
  return recordedBaseUrl(release.manifest) ?? baseUrlNamedIn(release.tree);
}
