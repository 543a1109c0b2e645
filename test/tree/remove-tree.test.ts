// removeTree: a release folder and all it holds, gone with one unlink per file.
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { removeTree } from "../../src/tree/remove-tree.js";
import { tempDir } from "../helpers.js";

describe("removeTree", () => {
  it("removes a folder with nested folders, files and symlinks, and leaves its siblings", async () => {
    const parent = await tempDir();
    const outside = join(parent, "kept");
    mkdirSync(outside);
    writeFileSync(join(outside, "file"), "kept");
    const tree = join(parent, "release");
    mkdirSync(join(tree, "vls/v3/stations/lyon"), { recursive: true });
    mkdirSync(join(tree, "empty"));
    writeFileSync(join(tree, "vls/v3/stations.json"), "[]");
    writeFileSync(join(tree, "vls/v3/stations/lyon/1.json"), "{}");
    symlinkSync(outside, join(tree, "vls/link"));
    removeTree(tree);
    expect(existsSync(tree)).toBe(false);
    expect(existsSync(join(outside, "file"))).toBe(true); // a symlink goes, never what it leads to
  });

  it("does nothing for a path that is not there, and removes a lone file", async () => {
    const parent = await tempDir();
    expect(() => removeTree(join(parent, "missing"))).not.toThrow();
    const file = join(parent, "file");
    writeFileSync(file, "x");
    removeTree(file);
    expect(existsSync(file)).toBe(false);
  });
});
