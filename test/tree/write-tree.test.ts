import { existsSync, lstatSync, readlinkSync, statSync } from "node:fs";
import { chmod, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { build } from "../../src/commands/build.js";
import { memoryOutput } from "../../src/commands/output.js";
import {
  makeRelease,
  type Release,
  type ReleaseFile,
  releaseFile,
} from "../../src/publish/release.js";
import { fileOf } from "../../src/routes/routes.js";
import { LEGACY_MARKER } from "../../src/tree/legacy.js";
import { readTree } from "../../src/tree/read-tree.js";
import { writeTree, writeTreeAsMade } from "../../src/tree/write-tree.js";
import { FIXTURES, runCli, tempDir } from "../helpers.js";
import { fixtureRelease, text } from "../publish/publish-helpers.js";
import { brokenRelease, deadPid, liveNodeProcess } from "./tree-helpers.js";

let release: Release;
beforeAll(async () => {
  release = await fixtureRelease();
});

const small = () =>
  makeRelease(
    new Map([
      ["/vls/v3/contracts", releaseFile([Buffer.from("[]")], "application/json", "static")],
    ]),
    { contracts: 0, stations: 0, parkings: 0 },
    new Date(0),
  );

describe("writeTree", () => {
  it("publishes every answer through a symlink, with the bookkeeping outside the served folder", async () => {
    const parent = await tempDir();
    const out = join(parent, "out");
    const stats = await writeTree(release, out);
    expect(stats.files).toBe(release.files.size);
    for (const path of [
      "/vls/v3/contracts",
      "/vls/v3/stations/dublin/42",
      "/rest/vls/stations/dublin.csv",
    ]) {
      expect(await readFile(join(out, fileOf(path)), "utf8")).toBe(text(release, path));
    }
    expect(lstatSync(out).isSymbolicLink()).toBe(true);
    expect((await readdir(out)).filter((entry) => entry.startsWith("."))).toEqual([]);
    const tree = readTree(out);
    expect(tree.manifest?.release).toBe(release.id);
    expect(tree.manifest?.files["/vls/v3/contracts"]).toEqual({
      etag: release.files.get("/vls/v3/contracts")?.etag,
      size: release.files.get("/vls/v3/contracts")?.size,
      type: "application/json",
    });
    expect(tree.release.tree.startsWith(join(parent, ".out.velodata/releases/"))).toBe(true);
    expect(await readdir(parent)).toEqual([".out.velodata", "out"]);
  });

  it("switches releases with one symlink rename and removes the previous one after", async () => {
    const parent = await tempDir();
    const out = join(parent, "out");
    await writeTree(release, out);
    const first = readlinkSync(out);
    await writeTree(small(), out);
    expect(readlinkSync(out)).not.toBe(first);
    expect(existsSync(join(parent, first))).toBe(false);
    expect(await readdir(join(parent, ".out.velodata/releases"))).toHaveLength(1);
    expect(existsSync(join(out, "vls/v3/stations.json"))).toBe(false);
    expect(await readFile(join(out, "vls/v3/contracts.json"), "utf8")).toBe("[]");
  });

  it("removes the release it replaced from another thread, before the command exits", async () => {
    const parent = await tempDir();
    const out = join(parent, "out");
    const build = () => runCli(["build", "--source", FIXTURES, "--out", out]);
    expect((await build()).code).toBe(0);
    const first = readlinkSync(out);
    expect((await build()).code).toBe(0);
    expect(readlinkSync(out)).not.toBe(first);
    expect(existsSync(join(parent, first))).toBe(false);
    expect(await readdir(join(parent, ".out.velodata/releases"))).toHaveLength(1);
  });

  it("hands the release it replaced to `removeReplaced` once switched, and what an earlier removal or a dead build left as it starts", async () => {
    const out = join(await tempDir(), "out");
    const given: string[][] = [];
    const removeReplaced = (folders: readonly string[]) => {
      given.push([...folders]);
      return 4242; // a remover's pid: nothing awaited, nothing removed here
    };
    await writeTree(release, out, { removeReplaced });
    const first = readlinkSync(out);
    const stats = await writeTree(release, out, { removeReplaced });
    expect(stats.replaced).toBe(4242);
    const removing = join(out, "..", ".out.velodata/removing");
    const aside = join(removing, basename(dirname(first)));
    expect(given).toEqual([[aside]]);
    expect(existsSync(aside)).toBe(true);
    // The next write starts its removal again (its remover was killed, or is still at it), and
    // sets a dead build's release aside for it.
    const dead = join(out, "..", ".out.velodata/releases/mzz0-abcdef");
    await mkdir(join(dead, "tree"), { recursive: true });
    await writeTree(release, out, { removeReplaced });
    expect(given[1]?.toSorted()).toEqual([aside, join(removing, "mzz0-abcdef")].toSorted());
    expect(existsSync(dead)).toBe(false);
    expect(given[2]?.length).toBe(1);
  });

  it("removes a dead build's release where it is when it cannot be set aside", async () => {
    const out = join(await tempDir(), "out");
    await writeTree(release, out);
    const dead = join(out, "..", ".out.velodata/releases/mzz0-abcdef");
    await mkdir(join(dead, "tree"), { recursive: true });
    // A folder of the same name in removing/, not empty: the move is refused (ENOTEMPTY).
    const removing = join(out, "..", ".out.velodata/removing");
    await mkdir(join(removing, "mzz0-abcdef/tree"), { recursive: true });
    const given: string[][] = [];
    await writeTree(release, out, {
      removeReplaced: (folders) => {
        given.push([...folders]);
        return 4242;
      },
    });
    expect(given[0]?.toSorted()).toEqual([join(removing, "mzz0-abcdef"), dead].toSorted());
  });

  it("says, on a terminal, that a build is removing the release it replaced until it is gone, where it removes it itself", async () => {
    // From the TypeScript sources no process of its own can be started (see remove-detached.ts).
    const out = join(await tempDir(), "out");
    const shown = async () => {
      const progress: string[] = [];
      const output = { ...memoryOutput(), progress: (text: string) => progress.push(text) };
      await build({ source: FIXTURES, out, output });
      return progress.filter((text) => text.includes("replaced"));
    };
    expect(await shown()).toEqual([]);
    expect(await shown()).toEqual(["removing the release it replaced…"]);
    expect(await readdir(join(out, "..", ".out.velodata/releases"))).toHaveLength(1);
  });

  it("leaves the previous tree served and whole, and no debris, when writing fails", async () => {
    const parent = await tempDir();
    const out = join(parent, "out");
    await writeTree(release, out);
    const link = readlinkSync(out);
    const before = await readFile(join(out, "vls/v3/contracts.json"), "utf8");
    await expect(writeTree(brokenRelease(), out)).rejects.toThrow();
    expect(readlinkSync(out)).toBe(link);
    expect(await readFile(join(out, "vls/v3/contracts.json"), "utf8")).toBe(before);
    expect(await readdir(parent)).toEqual([".out.velodata", "out"]);
    expect(await readdir(join(parent, ".out.velodata"))).toEqual(["releases"]);
    expect(await readdir(join(parent, ".out.velodata/releases"))).toHaveLength(1);
  });

  it("refuses to replace a folder it did not write, or a file", async () => {
    const out = join(await tempDir(), "home");
    await mkdir(out);
    await writeFile(join(out, "thesis.tex"), "precious");
    await expect(writeTree(release, out)).rejects.toThrow(/refusing to replace/);
    expect(await readFile(join(out, "thesis.tex"), "utf8")).toBe("precious");
    await expect(writeTree(release, join(out, "thesis.tex"))).rejects.toThrow(/is a file/);
  });

  it("replaces a tree of the old layout, keeping the folder's mode", async () => {
    const out = join(await tempDir(), "out");
    await mkdir(join(out, "vls/v3"), { recursive: true });
    await writeFile(join(out, LEGACY_MARKER), "{}");
    await writeFile(join(out, "vls/v3/old.json"), "[]");
    await chmod(out, 0o750);
    await writeTree(release, out);
    expect(lstatSync(out).isSymbolicLink()).toBe(true);
    expect(statSync(out).mode & 0o777).toBe(0o750);
    expect(existsSync(join(out, "vls/v3/old.json"))).toBe(false);
    expect(existsSync(join(out, LEGACY_MARKER))).toBe(false);
  });

  it("keeps an operator's symlink and makes it lead to the live tree", async () => {
    const parent = await tempDir();
    const real = join(parent, "srv/api");
    await mkdir(real, { recursive: true });
    await chmod(real, 0o711);
    const link = join(parent, "www");
    await symlink(real, link);
    await writeTree(release, link);
    await writeTree(small(), link);
    expect(readlinkSync(link)).toBe(real);
    expect(await readFile(join(link, "vls/v3/contracts.json"), "utf8")).toBe("[]");
    expect(lstatSync(real).isSymbolicLink()).toBe(true);
    expect(statSync(real).mode & 0o777).toBe(0o711);
    expect(existsSync(join(parent, "srv/.api.velodata"))).toBe(true);
  });

  it("puts back a folder set aside by a switch that was killed, even when the next build fails", async () => {
    const parent = await tempDir();
    const aside = join(parent, ".out.velodata/replaced");
    await mkdir(join(aside, "vls/v3"), { recursive: true });
    await writeFile(join(aside, LEGACY_MARKER), "{}");
    await writeFile(join(aside, "vls/v3/contracts.json"), '["previous"]');
    await expect(writeTree(brokenRelease(), join(parent, "out"))).rejects.toThrow();
    expect(await readFile(join(parent, "out/vls/v3/contracts.json"), "utf8")).toBe('["previous"]');
    expect(existsSync(aside)).toBe(false);
  });

  it("clears the old layout's debris and restores a tree its interrupted swap left aside", async () => {
    const parent = await tempDir();
    const pid = deadPid();
    const aside = join(parent, `.out.old-${pid}-1`);
    await mkdir(join(aside, "vls/v3"), { recursive: true });
    await writeFile(join(aside, LEGACY_MARKER), "{}");
    await writeFile(join(aside, "vls/v3/contracts.json"), '["previous"]');
    await mkdir(join(parent, `.out.staging-${pid}-xyz`));
    await expect(writeTree(brokenRelease(), join(parent, "out"))).rejects.toThrow();
    // The store the failed write made went with it.
    expect(await readdir(parent)).toEqual(["out"]);
    expect(await readFile(join(parent, "out/vls/v3/contracts.json"), "utf8")).toBe('["previous"]');
  });

  it("refuses to write while another live process holds the tree's lock, and takes a dead one's", async () => {
    const parent = await tempDir();
    await mkdir(join(parent, ".out.velodata"));
    const other = liveNodeProcess();
    try {
      await writeFile(join(parent, ".out.velodata/lock"), String(other.pid));
      await expect(writeTree(release, join(parent, "out"))).rejects.toThrow(
        `being written by another velodata process (pid ${other.pid})`,
      );
    } finally {
      other.stop();
    }
    await writeFile(join(parent, ".out.velodata/lock"), String(deadPid()));
    await writeTree(release, join(parent, "out"));
    expect(existsSync(join(parent, ".out.velodata/lock"))).toBe(false);
  });

  it("writes the files handed over early with the rest, and nothing of them when making fails", async () => {
    const parent = await tempDir();
    const out = join(parent, "out");
    const station = "/vls/v3/stations/dublin/42";
    const early = new Map([[station, release.files.get(station) as ReleaseFile]]);
    await writeTreeAsMade(out, async (write) => {
      write(early);
      return { release: small() };
    });
    // Handed over early, though the release made does not hold it: what was given is written.
    expect(await readFile(join(out, fileOf(station)), "utf8")).toBe(text(release, station));
    expect(await readFile(join(out, "vls/v3/contracts.json"), "utf8")).toBe("[]");

    const link = readlinkSync(out);
    await expect(
      writeTreeAsMade(out, async (write) => {
        // Enough that the other thread is still writing them when making fails.
        const many = new Map<string, ReleaseFile>();
        for (let number = 43; number < 30_000; number++)
          many.set(`/vls/v3/stations/dublin/${number}`, early.get(station) as ReleaseFile);
        write(many);
        throw new Error("rendering failed");
      }),
    ).rejects.toThrow("rendering failed");
    expect(readlinkSync(out)).toBe(link);
    expect(existsSync(join(out, "vls/v3/stations/dublin/43.json"))).toBe(false);
    expect(await readdir(join(parent, ".out.velodata/releases"))).toEqual([link.split("/").at(-2)]);
  });
});
