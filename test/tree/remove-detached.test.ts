import { watch } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { build as buildType } from "../../src/commands/build.js";
import { memoryOutput } from "../../src/commands/output.js";
import type { removeDetached as removeDetachedType } from "../../src/tree/remove-detached.js";
import { FIXTURES, tempDir, whenGone } from "../helpers.js";

// The compiled modules: from the TypeScript sources no remover process can be started.
const compiled = async <T>(module: string): Promise<T> =>
  (await import(new URL(`../../dist/${module}.js`, import.meta.url).href)) as T;

describe("removeDetached", () => {
  it("removes the folders from a process of its own, started and left to run", async () => {
    const { removeDetached } = await compiled<{ removeDetached: typeof removeDetachedType }>(
      "tree/remove-detached",
    );
    const parent = await tempDir();
    const folders = [join(parent, "a"), join(parent, "b")];
    for (const folder of folders) {
      await mkdir(join(folder, "stations/lyon"), { recursive: true });
      await writeFile(join(folder, "stations/lyon/1.json"), "{}");
      await writeFile(join(folder, "contracts.json"), "[]");
    }
    const remover = removeDetached(folders);
    expect(typeof remover).toBe("number");
    await Promise.all(folders.map(whenGone));
    expect(await readdir(parent)).toEqual([]);
  });
});

describe("velodata build", () => {
  it("returns at its switch, the release it replaced removed afterwards by a process of its own", async () => {
    const { build } = await compiled<{ build: typeof buildType }>("commands/build");
    const out = join(await tempDir(), "out");
    await build({ source: FIXTURES, out, output: memoryOutput() });
    await build({ source: FIXTURES, out, output: memoryOutput() });
    // Still there as the build returns: the process that removes it has yet to start Node (tens
    // of milliseconds), while the build returned right after starting it.
    const removing = join(out, "..", ".out.velodata/removing");
    const replaced = await readdir(removing);
    expect(replaced).toHaveLength(1);
    await whenGone(join(removing, replaced[0] as string));
    expect(await readdir(join(out, "..", ".out.velodata/releases"))).toHaveLength(1);
  });

  it("sets a dead build's release aside as it starts, removed by a process of its own", async () => {
    const { build } = await compiled<{ build: typeof buildType }>("commands/build");
    const out = join(await tempDir(), "out");
    await build({ source: FIXTURES, out, output: memoryOutput() });
    // A build killed while writing: its release folder, half full.
    const releases = join(out, "..", ".out.velodata/releases");
    await mkdir(join(releases, "mzz0-abcdef/tree/vls"), { recursive: true });
    await writeFile(join(releases, "mzz0-abcdef/tree/vls/contracts.json"), "[");
    // Moved there, not removed where it was.
    const removing = join(out, "..", ".out.velodata/removing");
    await mkdir(removing);
    const setAside = new Promise<void>((resolve) => {
      const watcher = watch(removing, (_, name) => {
        if (name !== "mzz0-abcdef") return;
        watcher.close();
        resolve();
      });
    });
    const output = memoryOutput();
    await build({ source: FIXTURES, out, output });
    await setAside;
    expect(await readdir(releases)).toHaveLength(1);
    expect(output.lines.join("\n")).toMatch(
      /^built .*\(release \w+\); 1 leftover release folder \(a stopped build's\) handed to a remover$/m,
    );
    await whenGone(join(removing, "mzz0-abcdef"));
  });
});
