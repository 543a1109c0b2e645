import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { makeRelease, type Release, releaseFile } from "../../src/publish/release.js";
import { fileOf } from "../../src/routes/routes.js";
import { MARKER, writeTree } from "../../src/tree/write-tree.js";
import { tempDir } from "../helpers.js";
import { fixtureRelease, text } from "../publish/publish-helpers.js";

let release: Release;
beforeAll(async () => {
  release = await fixtureRelease();
});

/** A release whose second file cannot be written: a build that dies half way. */
function brokenRelease(): Release {
  const files = new Map([
    ["/vls/v3/contracts", releaseFile([Buffer.from("[]")], "application/json", "static")],
    [
      "/vls/v3/stations",
      { ...releaseFile([], "application/json", "dynamic"), body: [42 as unknown as Uint8Array] },
    ],
  ]);
  return makeRelease(files, { contracts: 0, stations: 0, parkings: 0 }, new Date(0));
}

function deadPid(): number {
  for (let pid = 4_000_000; ; pid++) {
    try {
      process.kill(pid, 0);
    } catch {
      return pid;
    }
  }
}

describe("writeTree", () => {
  it("writes every answer at its file path with the release's bytes", async () => {
    const out = join(await tempDir(), "out");
    const stats = await writeTree(release, out);
    expect(stats.files).toBe(release.files.size);
    for (const path of [
      "/vls/v3/contracts",
      "/vls/v3/stations/dublin/42",
      "/rest/vls/stations/dublin.csv",
    ]) {
      expect(await readFile(join(out, fileOf(path)), "utf8")).toBe(text(release, path));
    }
  });

  it("leaves the previous tree untouched and no debris when writing fails", async () => {
    const parent = await tempDir();
    const out = join(parent, "out");
    await writeTree(release, out);
    const before = await readFile(join(out, "vls/v3/contracts.json"), "utf8");
    await expect(writeTree(brokenRelease(), out)).rejects.toThrow();
    expect(await readFile(join(out, "vls/v3/contracts.json"), "utf8")).toBe(before);
    expect(await readdir(parent)).toEqual(["out"]);
  });

  it("replaces the old tree whole: files gone from the release are gone from disk", async () => {
    const out = join(await tempDir(), "out");
    await writeTree(release, out);
    const small = makeRelease(
      new Map([
        ["/vls/v3/contracts", releaseFile([Buffer.from("[]")], "application/json", "static")],
      ]),
      release.counts,
      new Date(0),
    );
    await writeTree(small, out);
    expect(existsSync(join(out, "vls/v3/stations.json"))).toBe(false);
    expect(await readFile(join(out, "vls/v3/contracts.json"), "utf8")).toBe("[]");
  });

  it("refuses to replace a folder it did not write", async () => {
    const out = join(await tempDir(), "home");
    await mkdir(out);
    await writeFile(join(out, "thesis.tex"), "precious");
    await expect(writeTree(release, out)).rejects.toThrow(/refusing to replace/);
    expect(await readFile(join(out, "thesis.tex"), "utf8")).toBe("precious");
  });

  it("clears the debris of a killed build and restores a tree left aside by an interrupted swap", async () => {
    const parent = await tempDir();
    const pid = deadPid();
    const aside = join(parent, `.out.old-${pid}-1`);
    await mkdir(join(aside, "vls/v3"), { recursive: true });
    await writeFile(join(aside, MARKER), "{}");
    await writeFile(join(aside, "vls/v3/contracts.json"), '["previous"]');
    await mkdir(join(parent, `.out.staging-${pid}-xyz`));
    // This build fails too, so the tree on disk is the one the interrupted build had set aside.
    await expect(writeTree(brokenRelease(), join(parent, "out"))).rejects.toThrow();
    expect(await readdir(parent)).toEqual(["out"]);
    expect(await readFile(join(parent, "out/vls/v3/contracts.json"), "utf8")).toBe('["previous"]');
  });
});
