// A build refused on its --out leaves the disk as it found it: no store of its own beside it.
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { besidesFixtureWarning, FIXTURES, runCli, tempDir } from "../helpers.js";
import { tmpfsMount } from "../tmpfs.js";

const volume = await tmpfsMount("1m");

describe("a build refused on its --out", () => {
  it("leaves no store beside a folder of other files or a file", async () => {
    const parent = await tempDir();
    await mkdir(join(parent, "home"));
    await writeFile(join(parent, "home", "thesis.tex"), "precious");
    await writeFile(join(parent, "notes.txt"), "precious");
    for (const [out, refusal] of [
      // Never "empty it": it may be the user's source data.
      [
        "home",
        /refusing to replace .*home: it is not empty.*\n.*a folder to create, an empty one, or a tree velodata wrote/,
      ],
      ["notes.txt", /--out .*notes\.txt is a file, not a folder/],
    ] as const) {
      const result = await runCli(["build", "--source", FIXTURES, "--out", join(parent, out)]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(refusal);
      // Refused before the source is read: none of its warnings.
      expect(besidesFixtureWarning(result.stderr)).toBe(result.stderr);
      expect((await readdir(parent)).sort()).toEqual(["home", "notes.txt"]);
    }
    expect(await readdir(join(parent, "home"))).toEqual(["thesis.tex"]);
  });

  it.skipIf(!volume)(
    "leaves no store beside a mount point, though it wrote a release there",
    async () => {
      const out = volume as string;
      const result = await runCli(["build", "--source", FIXTURES, "--out", out]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/--out is busy, a mount point most likely/);
      expect(await readdir(join(out, ".."))).toEqual(["tmpfs"]);
      expect(await readdir(out)).toEqual([]);
    },
  );

  it("keeps a store it did not make, and what is in it", async () => {
    const parent = await tempDir();
    await mkdir(join(parent, "home"));
    await writeFile(join(parent, "home", "thesis.tex"), "precious");
    await mkdir(join(parent, ".home.velodata"));
    await writeFile(join(parent, ".home.velodata", "notes.txt"), "mine");
    const result = await runCli(["build", "--source", FIXTURES, "--out", join(parent, "home")]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/refusing to replace .*home: it is not empty/);
    expect(await readdir(join(parent, ".home.velodata"))).toEqual(["notes.txt"]);
  });
});
