// A cron refresh's lists of all stations get variants joined of their contracts' lists' pieces,
// also in a minute where one contract's stations all kept their state.
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { JOINED_BROTLI_START, networkWithLyonKept, runCli, tempDir } from "../helpers.js";

describe("velodata refresh", () => {
  it("joins the lists of all stations' variants of pieces also when a contract did not change", async () => {
    const dir = await tempDir();
    const { source, nextMinute } = await networkWithLyonKept(dir);
    const out = join(dir, "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const lyonList = join(out, "vls/v3/stations/lyon.json");
    const before = await stat(lyonList);
    const states = join(dir, "states.json");
    await writeFile(states, nextMinute);
    const refresh = ["refresh", "--source", source, "--state", states, "--out", out];
    const result = await runCli(refresh);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("only the changed stations rendered");
    // Lyon's list was not written again; the lists of all were, joined of every contract's pieces.
    expect((await stat(lyonList)).ino).toBe(before.ino);
    for (const list of ["vls/v3/stations.json", "vls/v1/stations.json"]) {
      const [plain, br, gzip] = await Promise.all(
        ["", ".br", ".gz"].map((suffix) => readFile(join(out, `${list}${suffix}`))),
      );
      expect([...(br as Buffer).subarray(0, 6)], list).toEqual(JOINED_BROTLI_START);
      expect(brotliDecompressSync(br as Buffer).equals(plain as Buffer), list).toBe(true);
      expect(gunzipSync(gzip as Buffer).equals(plain as Buffer), list).toBe(true);
    }
  });
});
