// Puts a Release on disk as a new release folder in the store, then switches the published symlink to it in one rename.

import { randomBytes } from "node:crypto";
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  symlinkSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { UserError } from "../errors.js";
import { worthCompressing } from "../publish/compress.js";
import type { Release, ReleaseFile } from "../publish/release.js";
import { fileOf } from "../routes/routes.js";
import type { StepTimes } from "../step-times.js";
import { BackgroundWriter, type FileToWrite } from "./background-writer.js";
import { writeHostFiles } from "./host-files.js";
import { inBatches } from "./in-batches.js";
import { afterLastWriteSecond } from "./later-second.js";
import {
  asideFolder,
  currentRelease,
  enclosingTree,
  layoutOf,
  linkTarget,
  refuseReleaseFolder,
  releasePaths,
  releasesBut,
  type TreeLayout,
} from "./layout.js";
import { setAsideAll } from "./leftover-releases.js";
import { withLeftoversBeingRemoved } from "./leftovers-space.js";
import { isLegacyTree, recoverLegacySwap } from "./legacy.js";
import { takeLock } from "./lock.js";
import { manifestOf, writeManifest } from "./manifest.js";
import { removeInBackground } from "./remove-in-background.js";
import { removeTree } from "./remove-tree.js";
import { type SiblingSizes, type SiblingsSink, writeSiblingFiles } from "./siblings.js";
import { emptyNewStore, makeStore, removeEmptyStore } from "./store-folder.js";
import { stuckReleases } from "./stuck-releases.js";
import { NOTHING_PUBLISHED, TREE_UNCHANGED, treeWriteError } from "./tree-error.js";
import { writeChunks } from "./write-chunks.js";

export interface TreeStats {
  files: number;
  bytes: number;
  /**
   * The release a new tree replaced, being removed by this process's threads (settles once it is
   * gone) or by a process of its own (its pid: see removeDetached).
   */
  replaced?: Promise<void> | number;
  /** The release folders stopped builds left, handed to the same removal as it started. */
  leftovers?: number;
  /** Release folders this process may not remove (see stuckReleases): said by the command. */
  stuck?: string[];
}

export type Progress = (done: number, total: number) => void;

export interface WriteOptions {
  onProgress?: Progress;
  /**
   * Writes the siblings of the release's files into the sink while the files are written (e.g.
   * writeSiblingsOffThread); the manifest is made once it settles.
   */
  compress?: (siblings: SiblingsSink) => Promise<void>;
  /** Called once this writer holds the tree's lock, before it writes anything (serve keeps the tree then). */
  onLocked?: (layout: TreeLayout) => void;
  /**
   * Told when the bodies and what goes beside the tree were written ("write"), then when the wait
   * for the last variants ended ("compress").
   */
  steps?: Pick<StepTimes, "ended">;
  /**
   * Removes the release folders a switch replaced (set aside first, see leftover-releases.ts); by
   * default this process's threads do it (removeInBackground), as a server that goes on running
   * wants.
   */
  removeReplaced?: (folders: readonly string[]) => Promise<void> | number;
}

/**
 * The previous release stays served and whole until the new one is complete; then one rename of
 * a symlink switches readers over, and the previous release folder is removed.
 */
export async function writeTree(
  release: Release,
  outDir: string,
  options: WriteOptions = {},
): Promise<TreeStats> {
  return writeTreeAsMade(
    outDir,
    async (_, siblings) => ({ release, compressing: options.compress?.(siblings) }),
    options,
  );
}

/** Hands files over before the release is whole: they are written at once, by a worker thread. */
export type EarlyFiles = (files: Iterable<readonly [string, ReleaseFile]>) => void;

/** What `make` gives back: the release and, when its files get siblings, their making. */
export interface Made {
  release: Release;
  /** Settles once every sibling is written into `make`'s `siblings` (see WriteOptions.compress). */
  compressing?: Promise<void>;
  /**
   * Writes what goes beside the tree into the new release folder: called once every body is
   * written, while the variants may still be being made (this thread would only wait for them).
   */
  beside?: (folder: string) => void;
}

/**
 * As writeTree, for a release made while the tree is written: the new release folder is ready
 * (and the tree locked) before `make` runs, and the files it hands to `early` that get no siblings
 * are written meanwhile by another thread. The siblings written into `siblings` meanwhile are told
 * by their sizes, which the manifest keeps. A failure of `make` leaves the served tree as it was.
 */
export async function writeTreeAsMade(
  outDir: string,
  make: (early: EarlyFiles, siblings: SiblingsSink) => Promise<Made>,
  options: Pick<WriteOptions, "onProgress" | "onLocked" | "steps" | "removeReplaced"> = {},
): Promise<TreeStats> {
  const layout = layoutOf(outDir);
  try {
    mkdirSync(dirname(layout.published), { recursive: true });
  } catch (cause) {
    throw treeWriteError(cause, layout.published, "nothing was written");
  }
  refuseTreeOwnPaths(layout);
  // A store this write made goes again if it publishes nothing (an --out of other files, a file,
  // a mount point): a refused build leaves the disk as it found it.
  const storeIsNew = makeStore(layout);
  let unlock: () => void;
  try {
    unlock = takeLock(layout);
  } catch (refusal) {
    if (storeIsNew) removeEmptyStore(layout);
    throw refusal;
  }
  let forgetStore = false;
  try {
    options.onLocked?.(layout);
    restoreReplacedFolder(layout);
    recoverLegacySwap(layout.published);
    const served = inspectPublished(layout);
    const remove = options.removeReplaced ?? removeInBackground;
    const leftovers = removeLeftovers(layout, currentRelease(layout), remove);
    await afterLastWriteSecond(layout);
    const paths = releasePaths(
      layout,
      `${Date.now().toString(36)}-${randomBytes(3).toString("hex")}`,
    );
    const background = new BackgroundWriter(paths.tree);
    // The files handed over early that get no siblings, the background writer's to write: the
    // release's file at one of these paths is its, when it is the same object.
    const handed = new Map<string, ReleaseFile>();
    // The siblings written as their variants came, which the release's files do not carry.
    const written = new Map<string, SiblingSizes>();
    const failed = new AbortController();
    const siblings: SiblingsSink = {
      root: paths.tree,
      stop: failed.signal,
      wrote: (path, sizes) => written.set(path, sizes),
    };
    let compressing: Promise<void> | undefined;
    let stats: TreeStats;
    let replaced: Promise<void> | number | undefined;
    try {
      mkdirSync(paths.folder, { recursive: true });
      mkdirSync(paths.tree);
      keepAccess(paths.tree, served);
      const made = await make((files) => {
        const toWrite: FileToWrite[] = [];
        for (const [path, file] of files) {
          if (worthCompressing(file)) continue;
          handed.set(path, file);
          toWrite.push([fileOf(path), bodyToWrite(file.body)]);
        }
        background.writeAll(toWrite);
      }, siblings);
      compressing = made.compressing;
      // Its failure is awaited below; until then it must not count as unhandled.
      compressing?.catch(() => {});
      const early = (path: string, file: ReleaseFile) => handed.get(path) === file;
      stats = await writeFiles(made.release, paths.tree, { ...options, early });
      // What goes beside the tree, while the last variants are made (this thread would only wait).
      made.beside?.(paths.folder);
      options.steps?.ended("write");
      await compressing;
      options.steps?.ended("compress");
      await background.finished();
      writeHostFiles(paths.tree, made.release.refreshSeconds);
      writeManifest(paths.manifest, manifestOf(made.release, written));
      switchTo(layout, paths.name, served);
    } catch (cause) {
      // Nothing may still be writing into the folder while it is removed.
      failed.abort();
      await compressing?.catch(() => {});
      await background.stop();
      removeTree(paths.folder);
      throw withLeftoversBeingRemoved(
        treeWriteError(cause, layout.published, leftThere(served)),
        leftovers,
      );
    } finally {
      // The previous release, kept until the switch was done, removed by other threads or another
      // process while this one goes on; what is left goes at the next build.
      try {
        removeLeftoverLinks(layout);
        const previous = setAsideAll(layout, releasesBut(layout, currentRelease(layout)));
        if (previous.length > 0) replaced = remove(previous);
      } catch {}
    }
    const stuck = stuckReleases(layout);
    return {
      ...stats,
      ...(replaced ? { replaced } : {}),
      ...(leftovers ? { leftovers } : {}),
      ...(stuck.length > 0 ? { stuck } : {}),
    };
  } catch (cause) {
    forgetStore = storeIsNew && currentRelease(layout) === null;
    if (forgetStore) emptyNewStore(layout);
    throw cause;
  } finally {
    unlock();
    if (forgetStore) removeEmptyStore(layout);
  }
}

/** What the published path holds now: nothing, our symlink, or a folder we may replace. */
type Served = { kind: "none" } | { kind: "ours" | "folder"; stats: Stats; empty?: boolean };

/** What a build that failed leaves at --out, for its error: the tree served there, or none yet. */
const leftThere = (served: Served): string =>
  served.kind === "none" || (served.kind === "folder" && served.empty)
    ? NOTHING_PUBLISHED
    : TREE_UNCHANGED;

/**
 * Refuses an --out that is a file or a folder of other files before anything is read (minutes at a
 * million stations); the write decides for good, under its lock.
 */
export function refuseForeignOut(out: string): void {
  const layout = layoutOf(out);
  if (!existsSync(dirname(layout.published))) return; // nothing there: made by the write
  refuseTreeOwnPaths(layout);
  inspectPublished(layout);
}

/** A path inside a published tree, or a release's own folder, is no --out (its parent exists). */
function refuseTreeOwnPaths(layout: TreeLayout): void {
  const enclosing = enclosingTree(dirname(layout.published));
  if (enclosing !== null)
    throw new UserError(
      `--out ${layout.published} is inside the tree velodata publishes at ${enclosing}: its next build would delete it`,
      ["choose an --out outside that tree"],
    );
  refuseReleaseFolder(layout.published);
}

function inspectPublished(layout: TreeLayout): Served {
  const { published } = layout;
  const stats = lstatSync(published, { throwIfNoEntry: false });
  if (!stats) return { kind: "none" };
  if (currentRelease(layout) !== null) {
    const tree = statSync(published, { throwIfNoEntry: false });
    return tree ? { kind: "ours", stats: tree } : { kind: "none" };
  }
  if (!stats.isDirectory()) {
    throw new UserError(`--out ${published} is a file, not a folder`, [
      "choose another --out (a folder to create, an empty one, or a tree velodata wrote)",
    ]);
  }
  const empty = readdirSync(published).length === 0;
  if (empty || isLegacyTree(published)) return { kind: "folder", stats, empty };
  throw new UserError(
    `refusing to replace ${published}: it is not empty and holds no tree velodata wrote`,
    [
      "choose another --out: a folder to create, an empty one, or a tree velodata wrote (it replaces no files of yours)",
    ],
  );
}

/** The new tree takes the mode and owner of the folder it replaces: the host must still read it. */
function keepAccess(tree: string, served: Served): void {
  if (served.kind === "none") {
    chmodSync(tree, 0o755);
    return;
  }
  chmodSync(tree, served.stats.mode & 0o7777);
  try {
    chownSync(tree, served.stats.uid, served.stats.gid);
  } catch {
    // Not permitted for a user that does not own the folder: the tree is then ours, as any file we write.
  }
}

/**
 * Every file's own bytes but those handed over early (written by the background writer, awaited
 * before the manifest), and the siblings of those that already carry variants.
 */
async function writeFiles(
  release: Release,
  root: string,
  options: Pick<WriteOptions, "onProgress"> & {
    early: (path: string, file: ReleaseFile) => boolean;
  },
): Promise<TreeStats> {
  const folders = new Set<string>();
  const total = release.files.size;
  let done = 0;
  let bytes = 0;
  const now: [string, ReleaseFile][] = [];
  for (const [path, file] of release.files) {
    if (options.early(path, file)) {
      bytes += file.size;
      options.onProgress?.(++done, total);
    } else now.push([path, file]);
  }
  // Every body now, while the thread pool compresses (a million stations' lists are ~4 GB).
  await inBatches(now, ([path, file]) => {
    const destination = join(root, fileOf(path));
    writeWhole(destination, file.body, folders);
    if (file.variants) writeSiblingFiles(destination, file.variants);
    bytes += file.size;
    options.onProgress?.(++done, total);
  });
  return { files: total, bytes };
}

/** Writes one file, creating its folder once; the error names the file (writeChunks's). */
export function writeWhole(
  destination: string,
  body: readonly Uint8Array[],
  folders: Set<string>,
): void {
  const folder = dirname(destination);
  if (!folders.has(folder)) {
    mkdirSync(folder, { recursive: true });
    folders.add(folder);
  }
  writeChunks(destination, body);
}

/**
 * Most files are one chunk: handing writeFile the buffer itself spares it the iterable path; a
 * small list without siblings is a few chunks, joined into one write.
 */
export const bodyToWrite = (body: readonly Uint8Array[]): Uint8Array =>
  body.length === 1 ? (body[0] as Uint8Array) : Buffer.concat(body);

/**
 * One rename of a new symlink over the published path. A folder (an old layout's tree, or the
 * operator's empty folder) cannot be replaced by a symlink in one rename: it steps aside into the
 * store first, and goes back there if this process dies before the second rename.
 */
function switchTo(layout: TreeLayout, name: string, served: Served): void {
  const link = join(layout.store, `link-${process.pid}`);
  rmSync(link, { force: true });
  symlinkSync(linkTarget(layout, name), link);
  if (served.kind === "folder") renameSync(layout.published, replacedPath(layout));
  renameSync(link, layout.published);
  removeTree(replacedPath(layout));
}

const replacedPath = (layout: TreeLayout): string => join(layout.store, "replaced");

function restoreReplacedFolder(layout: TreeLayout): void {
  const replaced = replacedPath(layout);
  if (!existsSync(replaced)) return;
  if (lstatSync(layout.published, { throwIfNoEntry: false })) {
    removeTree(replaced);
  } else {
    renameSync(replaced, layout.published);
  }
}

/**
 * Under the lock, any release folder but the served one is a dead build's or the one replaced,
 * and any link of the store a dead build's that never became the published path. Returns how
 * many release folders stopped builds left (those in `removing/` are not counted).
 */
function removeLeftovers(
  layout: TreeLayout,
  keep: string | null,
  remove: NonNullable<WriteOptions["removeReplaced"]>,
): number {
  removeLeftoverLinks(layout);
  // A dead build's release, and what the removal of a replaced one left (cut short, or still at
  // it: the same files unlinked twice over is harmless), removed beside this write rather than
  // before it: either may be a million stations' tree, ~100 s of unlink calls on disk.
  const dead = setAsideAll(layout, releasesBut(layout, keep));
  const unmoved = dead.filter((folder) => dirname(folder) === layout.releases);
  const aside = asideFolder(layout);
  const left = existsSync(aside) ? readdirSync(aside).map((name) => join(aside, name)) : [];
  if (left.length + unmoved.length > 0)
    Promise.resolve(remove([...left, ...unmoved])).catch(() => {});
  return dead.length;
}

function removeLeftoverLinks(layout: TreeLayout): void {
  for (const entry of readdirSync(layout.store)) {
    if (entry.startsWith("link-")) rmSync(join(layout.store, entry), { force: true });
  }
}
