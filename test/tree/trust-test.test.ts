// The updater's trust test, by `find` and by an lstat per file: the same paths fail either way,
// for each kind of change made behind velodata's back.
import { chmodSync, lstatSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { build } from "../../src/commands/build.js";
import { memoryOutput } from "../../src/commands/output.js";
import { fileOf } from "../../src/routes/file-of.js";
import { changedSince } from "../../src/tree/changed-since-seal.js";
import { readTree, type Tree } from "../../src/tree/read-tree.js";
import { untrustedFiles, untrustedPaths } from "../../src/tree/trust-test.js";
import { FIXTURES, tempDir } from "../helpers.js";

/** A built tree of the fixtures, once the clock has moved past its seal (so a change shows). */
async function builtTree(): Promise<Tree> {
  const dir = await tempDir();
  const out = join(dir, "out");
  await build({ source: FIXTURES, out, now: new Date(), output: memoryOutput() });
  const tree = readTree(out);
  // File times move by the kernel's tick: wait (for the event, not for a set time) until a file
  // written now is newer than the seal.
  const probe = join(dir, "probe");
  do writeFileSync(probe, "");
  while (lstatSync(probe).ctimeMs <= tree.sealedAt);
  return tree;
}

/** What each way finds: `find`'s, the worker's fallback (no find), and an lstat per file. */
async function eachWay(tree: Tree) {
  const manifest = tree.manifest;
  if (!manifest) throw new Error("no manifest");
  return {
    find: await untrustedFiles(tree),
    fallback: await untrustedFiles(tree, "velodata-no-such-find"),
    lstat: untrustedPaths(tree.release.tree, manifest, tree.sealedAt),
  };
}

const onDisk = (tree: Tree, path: string) => join(tree.release.tree, fileOf(path));

/** A path of the manifest with siblings, and one without. */
function paths(tree: Tree): { compressed: string; plain: string } {
  const manifest = tree.manifest;
  const all = manifest?.paths ?? [];
  const compressed = all.find((path) => manifest?.entry(path)?.variants);
  const plain = all.find(
    (path) => path.startsWith("/vls/v3/stations/") && !manifest?.entry(path)?.variants,
  );
  if (!compressed || !plain) throw new Error("the fixtures' tree lacks a kind of file");
  return { compressed, plain };
}

describe("the trust test", () => {
  it("uses find here: it lists nothing of a tree as velodata left it", async () => {
    const tree = await builtTree();
    expect(await changedSince(tree.release.tree, tree.release.manifest)).toEqual([]);
    expect(await eachWay(tree)).toEqual({ find: [], fallback: [], lstat: [] });
  });

  it("fails a file rewritten in place with the same size", async () => {
    const tree = await builtTree();
    const { plain } = paths(tree);
    const file = onDisk(tree, plain);
    writeFileSync(file, " ".repeat(lstatSync(file).size));
    expect(await eachWay(tree)).toEqual({ find: [plain], fallback: [plain], lstat: [plain] });
  });

  it("fails a file whose compressed sibling was changed", async () => {
    const tree = await builtTree();
    const { compressed } = paths(tree);
    chmodSync(`${onDisk(tree, compressed)}.br`, 0o600);
    const expected = [compressed];
    expect(await eachWay(tree)).toEqual({ find: expected, fallback: expected, lstat: expected });
  });

  it("fails a file deleted, and the files of a folder deleted", async () => {
    const tree = await builtTree();
    const { plain } = paths(tree);
    rmSync(onDisk(tree, plain));
    const folder = "/vls/v1/stations/";
    rmSync(join(tree.release.tree, fileOf(folder).replace(/index\.html$/, "")), {
      recursive: true,
      force: true,
    });
    const gone = (tree.manifest?.paths ?? []).filter((path) => path.startsWith(folder));
    expect(gone.length).toBeGreaterThan(1);
    const expected = [plain, ...gone].sort();
    const found = await eachWay(tree);
    expect({
      find: found.find?.sort(),
      fallback: found.fallback?.sort(),
      lstat: found.lstat.sort(),
    }).toEqual({ find: expected, fallback: expected, lstat: expected });
  });

  it("trusts the files beside a file added to their folder", async () => {
    const tree = await builtTree();
    const { plain } = paths(tree);
    writeFileSync(`${onDisk(tree, plain)}.orig`, "a copy left by hand");
    expect(await changedSince(tree.release.tree, tree.release.manifest)).not.toEqual([]);
    expect(await eachWay(tree)).toEqual({ find: [], fallback: [], lstat: [] });
  });

  it("answers null when the manifest was sealed again meanwhile", async () => {
    const tree = await builtTree();
    chmodSync(tree.release.manifest, 0o600);
    expect(await untrustedFiles(tree)).toBeNull();
  });
});
