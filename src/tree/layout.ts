// Where a tree lives: the published path (a symlink the host serves), and its bookkeeping store beside it.
import { existsSync, lstatSync, readdirSync, readlinkSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { UserError } from "../errors.js";

/**
 * The published path `out` is a symlink to `.out.velodata/releases/<name>/tree`; switching it is
 * one rename(2) over it. Everything that is not an answer (manifests, journal, lock, staged files)
 * lives in the store beside the served folder, where a static host never looks.
 */
export interface TreeLayout {
  /** The path readers open: the operator's --out, or where their own symlinks lead. */
  published: string;
  /** `.NAME.velodata` beside the published path: releases, lock, replaced folders. */
  store: string;
  releases: string;
}

export const STORE_SUFFIX = ".velodata";
export const SERVED_FOLDER = "tree";
export const MANIFEST_FILE = "manifest.json";

export function layoutOf(out: string): TreeLayout {
  const published = publishedPath(resolve(out));
  const store = join(dirname(published), `.${basename(published)}${STORE_SUFFIX}`);
  return { published, store, releases: join(store, "releases") };
}

/** A release folder in the store: the served tree and, beside it, what describes it. */
export function releasePaths(layout: TreeLayout, name: string) {
  const folder = join(layout.releases, name);
  return {
    name,
    folder,
    tree: join(folder, SERVED_FOLDER),
    manifest: join(folder, MANIFEST_FILE),
    /** Present while a refresh moves files into the tree, and after it was interrupted. */
    dirty: join(folder, "dirty.json"),
    /** A refresh's new files, written whole before any of them enters the tree. */
    incoming: join(folder, "incoming"),
  };
}

export type ReleasePaths = ReturnType<typeof releasePaths>;

/** What the published symlink should say: relative, so the parent folder can move as a whole. */
export const linkTarget = (layout: TreeLayout, name: string): string =>
  join(basename(layout.store), "releases", name, SERVED_FOLDER);

/** The release the published path points at now, or null when it is not (yet) one of ours. */
export function currentRelease(layout: TreeLayout): string | null {
  const target = ownLinkTarget(layout.published);
  return target === null ? null : (target.split("/")[2] ?? null);
}

/**
 * Where a build moves the release it replaced, and a build or refresh a stopped build's, while a
 * process of its own removes them (see leftover-releases.ts).
 */
export const asideFolder = (layout: TreeLayout): string => join(layout.store, "removing");

/** The release folders but `keep`. */
export function releasesBut(layout: TreeLayout, keep: string | null): string[] {
  if (!existsSync(layout.releases)) return [];
  return readdirSync(layout.releases)
    .filter((name) => name !== keep)
    .map((name) => join(layout.releases, name));
}

/**
 * Follows an operator's symlinks (`--out /var/www/api` → `/srv/velodata/out`) to the path we
 * manage, stopping at our own link: the operator's link keeps pointing at it, so it stays valid
 * and always leads to the live tree.
 */
function publishedPath(start: string): string {
  let path = start;
  for (let hops = 0; hops < 32; hops++) {
    const stats = lstatSync(path, { throwIfNoEntry: false });
    if (!stats?.isSymbolicLink() || ownLinkTarget(path) !== null) return path;
    path = resolve(dirname(path), readlinkSync(path));
  }
  throw new UserError(`${start}: too many levels of symbolic links`, [
    "point --out at a folder, or at a symlink that leads to one",
  ]);
}

function ownLinkTarget(path: string): string | null {
  let target: string;
  try {
    target = readlinkSync(path);
  } catch {
    return null;
  }
  const parts = target.split("/");
  const ours =
    parts.length === 4 &&
    parts[0] === `.${basename(path)}${STORE_SUFFIX}` &&
    parts[1] === "releases" &&
    parts[3] === SERVED_FOLDER;
  return ours ? target : null;
}

/**
 * The published path of the velodata tree whose served folder holds `folder` (an existing
 * folder), or null. A tree made there would be deleted with the release that holds it, and its
 * store would be served.
 */
export function enclosingTree(folder: string): string | null {
  const parts = realpathSync(folder).split(sep);
  for (let at = parts.length - 4; at >= 0; at--) {
    const store = parts[at] as string;
    const name = store.slice(1, -STORE_SUFFIX.length);
    if (
      store.startsWith(".") &&
      store.endsWith(STORE_SUFFIX) &&
      name.length > 0 &&
      parts[at + 1] === "releases" &&
      parts[at + 3] === SERVED_FOLDER
    )
      return [...parts.slice(0, at), name].join(sep);
  }
  return null;
}

/**
 * Refuses a path given as a tree (`--out`, `--tree`) that lies in a release folder of a published
 * tree rather than leading to one: `readlink -f` of the published path pasted in, a subfolder of
 * it, a link to it. "No tree here" would send the user to build one there.
 */
export function refuseReleaseFolder(out: string): void {
  if (!lstatSync(out, { throwIfNoEntry: false })?.isDirectory()) return;
  const published = enclosingTree(out);
  if (published === null) return;
  let served = false;
  try {
    served = realpathSync(out) === realpathSync(published);
  } catch {
    // The tree's link is gone: the folder is a release's all the same.
  }
  throw new UserError(
    served
      ? `${out} is the folder velodata serves at ${published}, where that path's link leads`
      : `${out} is inside the tree velodata publishes at ${published}`,
    [
      `give ${published} instead: the link, which each build and refresh switches to the new release`,
    ],
  );
}
