// Brings the served tree up to a new Release in place: changed files staged whole, then moved in; a mixed tree is repaired.
import { mkdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { worthCompressing } from "../publish/compress.js";
import type { Release, ReleaseFile } from "../publish/release.js";
import { fileOf } from "../routes/routes.js";
import type { StepTimes } from "../step-times.js";
import { filesUnder } from "./files-under.js";
import { HOST_FILES, writeHostFiles } from "./host-files.js";
import { inBatches } from "./in-batches.js";
import { afterLastWriteSecond } from "./later-second.js";
import { takeLock } from "./lock.js";
import { type Manifest, manifestOf, writeManifest } from "./manifest.js";
import { readTree, type Tree } from "./read-tree.js";
import { SIBLING_SUFFIXES, siblingsOf } from "./siblings.js";
import { TREE_UNCHANGED, treeWriteError } from "./tree-error.js";
import { trustedOnDisk } from "./trust-test.js";
import { unchangedSince } from "./unchanged-since.js";
import { writeChunks, writeChunksInPool } from "./write-chunks.js";
import { bodyToWrite, type TreeStats } from "./write-tree.js";

export interface UpdateStats extends TreeStats {
  /** Files whose bytes on disk were not the manifest's (a killed run, or a hand edit), rewritten. */
  repaired: number;
  /** Files of the previous release that are not in this one, deleted. */
  removed: number;
  /** The whole tree was checked against the release, byte for byte (after an interrupted run). */
  verified: boolean;
}

export interface UpdateOptions {
  /**
   * The tree as the caller read it before (readTree): used as it is when, under the lock, it still
   * serves the same release, is not marked dirty and its manifest is the same file (same ctime),
   * so that the manifest is parsed once per run.
   */
  tree?: Tree;
  /**
   * Runs the moves once every new byte is staged: from the tree's first change to its seal, when
   * its files mix two releases (a command holds its stops back meanwhile). Settles as they do.
   */
  whileMoving?: (move: () => Promise<void>) => Promise<void>;
}

interface Plan {
  write: [string, ReleaseFile][];
  remove: string[];
  repaired: number;
}

/**
 * Steps, each safe to die in: (1) new bytes are written into the store's `incoming/`, outside the
 * served folder, so a full disk fails here with the tree untouched; (2) a `dirty` mark is set;
 * (3) files are renamed in, one whole file at a time, and gone ones deleted; (4) the new manifest
 * is sealed and the mark removed. A run that finds the mark trusts no file: it compares the whole
 * tree with the release, byte for byte, and rewrites or deletes whatever differs.
 */
export async function updateTree(
  release: Release,
  outDir: string,
  options: UpdateOptions = {},
): Promise<UpdateStats> {
  // Read before the lock, so that a missing tree is said plainly and no store is created.
  const before = options.tree ?? readTree(outDir);
  const unlock = takeLock(before.layout);
  try {
    await afterLastWriteSecond(before.layout);
    const tree = unchangedSince(before, outDir) ? before : readTree(outDir);
    const plan = tree.manifest
      ? await planFromManifest(release, tree)
      : await planFromDisk(release, tree.release.tree);
    await applyPlan(tree, plan, manifestOf(release), options.whileMoving);
    return {
      files: plan.write.length,
      bytes: plan.write.reduce((total, [, file]) => total + file.size, 0),
      repaired: plan.repaired,
      removed: plan.remove.length,
      verified: tree.manifest === null,
    };
  } finally {
    unlock();
  }
}

/** What a cron refresh writes once the variants of its changed answers are made. */
export interface Finished {
  /** Every changed answer, those worth compressing carrying their variants. */
  files: readonly [string, ReleaseFile][];
  /** The tree's manifest patched with them. */
  manifest: Manifest;
}

/**
 * The changed answers of a cron refresh, whose release keeps every path of the tree's: written
 * like any update (staged, marked, moved in, sealed). Every answer's own bytes are staged while
 * `finished` (the variants, the patched manifest) is being made, only the siblings after. The
 * caller has found every other file trusted (`untrustedFiles`) under the tree's manifest; under
 * the lock it must still be the tree's, or nothing is written and false is returned (so too when
 * `finished` is null). `steps` is told when the staging ended, and when the wait for `finished`
 * did (its variants, after the caller's trust test).
 */
export async function updateTreeChanges(
  tree: Tree,
  outDir: string,
  changed: ReadonlyMap<string, ReleaseFile>,
  finished: Promise<Finished | null>,
  {
    steps,
    whileMoving = moveNow,
  }: Pick<UpdateOptions, "whileMoving"> & { steps?: Pick<StepTimes, "ended"> } = {},
): Promise<boolean> {
  const unlock = takeLock(tree.layout);
  try {
    if (!unchangedSince(tree, outDir)) return false;
    await afterLastWriteSecond(tree.layout);
    const incoming = tree.release.incoming;
    rmSync(incoming, { recursive: true, force: true });
    // Those without variants first: they are all there is to them.
    const bodies = [...changed].sort(
      ([, a], [, b]) => Number(worthCompressing(a)) - Number(worthCompressing(b)),
    );
    const folders = new Set<string>();
    await stage(tree, bodies, 0, folders, { makeIncoming: true, siblings: false });
    steps?.ended("write");
    const done = await finished.catch((cause) => {
      rmSync(incoming, { recursive: true, force: true });
      throw cause;
    });
    steps?.ended("compress");
    if (!done) {
      rmSync(incoming, { recursive: true, force: true });
      return false;
    }
    // Each answer as made, at the place its bytes were staged: its siblings staged beside them
    // (and its bytes again, should they not be the ones staged).
    const made = new Map(done.files);
    const write = bodies.map(([path, file]): [string, ReleaseFile] => [
      path,
      made.get(path) ?? file,
    ]);
    await stage(tree, write, 0, folders, {
      body: (index) => write[index]?.[1].body !== bodies[index]?.[1].body,
    });
    const plan: Plan = { write, remove: [], repaired: 0 };
    for (const [path, file] of plan.write)
      if (tree.manifest?.entry(path)?.variants && !file.variants)
        plan.remove.push(...siblingFiles(fileOf(path)));
    await whileMoving(() => moveIn(tree, plan, done.manifest));
    return true;
  } finally {
    unlock();
  }
}

/** Steps (1) to (4) of updateTree, for a plan made under the lock. */
async function applyPlan(
  tree: Tree,
  plan: Plan,
  manifest: Manifest,
  whileMoving = moveNow,
): Promise<void> {
  rmSync(tree.release.incoming, { recursive: true, force: true });
  await stage(tree, plan.write, 0, new Set(), { makeIncoming: true });
  await whileMoving(() => moveIn(tree, plan, manifest));
}

const moveNow = (move: () => Promise<void>): Promise<void> => move();

/** Which parts of each file `stage` writes (default: its bytes and its siblings). */
interface StageParts {
  /** Make `incoming/` first (the first call). */
  makeIncoming?: boolean;
  /** Whether the file at this position (`first` + its own) gets its bytes written. */
  body?: (index: number) => boolean;
  siblings?: boolean;
}

/**
 * Step (1): new bytes written into `incoming/` (as `first`, `first + 1`…), outside the served
 * folder, so that a full disk fails here with the tree untouched.
 */
async function stage(
  tree: Tree,
  files: readonly [string, ReleaseFile][],
  first: number,
  folders: Set<string>,
  parts: StageParts = {},
): Promise<void> {
  const { release: paths } = tree;
  const { makeIncoming = false, body = () => true, siblings = true } = parts;
  const { tree: inTree, incoming } = prefixes(tree);
  const inPool: Promise<void>[] = [];
  try {
    if (makeIncoming) mkdirSync(paths.incoming);
    await inBatches(
      files.map((entry, index) => [entry, first + index] as const),
      ([[path, file], index]) => {
        // Folders of new answers are made now: an empty folder in the tree harms no reader.
        const destination = inTree + fileOf(path);
        const folder = destination.slice(0, destination.lastIndexOf("/"));
        if (!folders.has(folder)) {
          mkdirSync(folder, { recursive: true });
          folders.add(folder);
        }
        const staged = incoming + index;
        if (body(index) && file.size >= IN_POOL_SIZE) {
          const written = writeChunksInPool(staged, file.body);
          written.catch(() => {}); // awaited below
          inPool.push(written);
        } else if (body(index)) writeChunks(staged, file.body);
        if (siblings)
          for (const [suffix, variant] of siblingsOf(file))
            writeChunks(`${staged}${suffix}`, [variant]);
      },
    );
    await Promise.all(inPool);
  } catch (cause) {
    await Promise.allSettled(inPool); // none goes on writing once incoming/ is removed
    rmSync(paths.incoming, { recursive: true, force: true });
    throw treeWriteError(
      cause,
      tree.layout.published,
      tree.interrupted ? "the tree served there is still the interrupted one" : TREE_UNCHANGED,
    );
  }
}

// Bigger bodies (a cron refresh's lists and feeds, ~300 MB) are written by the thread pool while
// this thread writes the small ones: their copy into the file system is most of their cost.
const IN_POOL_SIZE = 256 << 10;

/** Steps (2) to (4): the dirty mark, the staged files moved in, gone ones deleted, the seal. */
async function moveIn(tree: Tree, plan: Plan, manifest: Manifest): Promise<void> {
  const { release: paths } = tree;
  const { tree: inTree, incoming } = prefixes(tree);
  // With no file to move or delete, the seal alone (one file renamed in) leaves the tree as it was
  // or makes it the new release: no mark, which would have every file checked at the next run.
  const moves = plan.write.length > 0 || plan.remove.length > 0;
  try {
    if (moves) markDirty(paths.dirty, manifest.release);
  } catch (cause) {
    rmSync(paths.dirty, { force: true }); // the mark half written: nothing was moved yet
    rmSync(paths.incoming, { recursive: true, force: true });
    throw treeWriteError(cause, tree.layout.published, TREE_UNCHANGED);
  }
  try {
    await inBatches(
      plan.write.map((entry, index) => [entry, index] as const),
      ([[path, file], index]) => {
        const staged = incoming + index;
        const destination = inTree + fileOf(path);
        renameSync(staged, destination);
        // Siblings follow their file in the same dirty window: the mark covers a mix of both.
        for (const [suffix] of siblingsOf(file))
          renameSync(`${staged}${suffix}`, `${destination}${suffix}`);
      },
    );
    await inBatches(plan.remove, (file) => rmSync(join(paths.tree, file), { force: true }));
    removeEmptiedFolders(paths.tree, plan.remove);
    writeHostFiles(paths.tree, manifest.refreshSeconds); // a newer velodata may have new routes
    writeManifest(paths.manifest, manifest);
    rmSync(paths.dirty, { force: true });
  } catch (cause) {
    throw treeWriteError(
      cause,
      tree.layout.published,
      moves
        ? "the tree there is partly updated and marked so: the next refresh or build repairs it"
        : TREE_UNCHANGED,
    );
  } finally {
    rmSync(paths.incoming, { recursive: true, force: true });
  }
}

/**
 * The folders of removed files that hold nothing now (a contract renamed or gone leaves
 * `vls/v3/stations/OLD/` and `contracts/OLD/gbfs/…`), deepest first, up to the tree's root.
 */
function removeEmptiedFolders(root: string, removed: readonly string[]): void {
  const folders = new Set<string>();
  for (const file of removed)
    for (let folder = dirname(file); folder !== "." && folder !== "/"; folder = dirname(folder))
      folders.add(folder);
  const deepestFirst = [...folders].sort((a, b) => b.split("/").length - a.split("/").length);
  for (const folder of deepestFirst) {
    try {
      rmdirSync(join(root, folder));
    } catch (cause) {
      const code = (cause as NodeJS.ErrnoException).code;
      if (code !== "ENOTEMPTY" && code !== "EEXIST" && code !== "ENOENT") throw cause;
    }
  }
}

/** The mark that the tree may be a mix of two releases, until the seal. */
function markDirty(path: string, release: string): void {
  writeFileSync(path, JSON.stringify({ pid: process.pid, release }));
}

/**
 * The tree's and `incoming/`'s paths, each ending in a slash: a file's path is one of them and a
 * relative name (`fileOf`), without `join`'s normalising, ~0.1 s of a cron refresh's ~20,000 files.
 */
function prefixes(tree: Tree): { tree: string; incoming: string } {
  const slashed = (folder: string) => (folder.endsWith("/") ? folder : `${folder}/`);
  return { tree: slashed(tree.release.tree), incoming: slashed(tree.release.incoming) };
}

/**
 * What changed is known from the manifest's ETags. A file the manifest says is current is
 * trusted when it still has the manifest's size and was not changed after it was sealed;
 * otherwise its bytes are compared with the release's. Every unchanged file is tested at every
 * run (one lstat each): testing a share of them per run would not do, as the ctime is compared
 * with the latest seal, which an edit made before the previous run precedes.
 */
async function planFromManifest(release: Release, tree: Tree): Promise<Plan> {
  const manifest = tree.manifest as Manifest;
  const plan: Plan = { write: [], remove: [], repaired: 0 };
  await inBatches([...release.files], (entry) => {
    const [path, file] = entry;
    const known = manifest.entry(path);
    // Siblings no longer wanted (a file shrunk below the compression threshold) go with the change.
    if (known?.variants && !file.variants) plan.remove.push(...siblingFiles(fileOf(path)));
    if (known?.etag !== file.etag || Boolean(known.variants) !== Boolean(file.variants)) {
      plan.write.push(entry);
      return;
    }
    const onDisk = join(tree.release.tree, fileOf(path));
    if (!trustedOnDisk(onDisk, known, tree.sealedAt) && !sameFiles(onDisk, file)) {
      plan.write.push(entry);
      plan.repaired++;
    }
  });
  for (const path of manifest.paths) {
    if (release.files.has(path)) continue;
    plan.remove.push(fileOf(path));
    if (manifest.entry(path)?.variants) plan.remove.push(...siblingFiles(fileOf(path)));
  }
  return plan;
}

/** After an interrupted run: every file compared with the release, every stray file deleted. */
async function planFromDisk(release: Release, root: string): Promise<Plan> {
  const plan: Plan = { write: [], remove: [], repaired: 0 };
  const expected = new Set<string>(HOST_FILES);
  await inBatches([...release.files], (entry) => {
    const file = fileOf(entry[0]);
    expected.add(file);
    for (const [suffix] of siblingsOf(entry[1])) expected.add(`${file}${suffix}`);
    if (!sameFiles(join(root, file), entry[1])) {
      plan.write.push(entry);
      plan.repaired++;
    }
  });
  for (const file of filesUnder(root)) if (!expected.has(file)) plan.remove.push(file);
  return plan;
}

const siblingFiles = (file: string): string[] =>
  SIBLING_SUFFIXES.map((suffix) => `${file}${suffix}`);

/** The file and each of its siblings hold the release's bytes. */
function sameFiles(path: string, file: ReleaseFile): boolean {
  return (
    sameBytes(path, bodyToWrite(file.body)) &&
    siblingsOf(file).every(([suffix, bytes]) => sameBytes(`${path}${suffix}`, bytes))
  );
}

function sameBytes(path: string, body: Uint8Array): boolean {
  try {
    return Buffer.from(body.buffer, body.byteOffset, body.byteLength).equals(readFileSync(path));
  } catch {
    return false;
  }
}
