import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixtureCopy, runCli, tempDir } from "../helpers.js";

describe("velodata refresh", () => {
  it("rewrites only the answers whose states changed; a broken state file changes nothing", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const states = join(source, "states.json");
    const original = await readFile(states, "utf8");
    const contracts = await stat(join(out, "vls/v3/contracts.json"));

    await writeFile(
      states,
      original.replace(
        '"lastUpdate": "2025-02-08T16:44:06Z"',
        '"lastUpdate": "2025-02-08T16:50:00Z"',
      ),
    );
    const result = await runCli(["refresh", "--source", source, "--state", states, "--out", out]);
    expect(result.code).toBe(0);
    // the station, its contract's list, the list of all, in v3 and in v1
    expect(result.stdout).toMatch(/refreshed .*: 6 of \d+ files changed/);
    expect(
      JSON.parse(await readFile(join(out, "vls/v3/stations/dublin/42.json"), "utf8")).lastUpdate,
    ).toBe("2025-02-08T16:50:00Z");
    expect((await stat(join(out, "vls/v3/contracts.json"))).ino).toBe(contracts.ino);

    const before = await readFile(join(out, "vls/v3/stations.json"), "utf8");
    await writeFile(states, original.replace('"status": "OPEN"', '"status": "SHUT"'));
    const broken = await runCli(["refresh", "--source", source, "--state", states, "--out", out]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/states\.json\[0\] \(dublin #42\) status: /);
    expect(await readFile(join(out, "vls/v3/stations.json"), "utf8")).toBe(before);
  });

  it("refuses a folder that holds no velodata tree", async () => {
    const result = await runCli([
      "refresh",
      "--source",
      "fixtures",
      "--state",
      "fixtures/states.json",
      "--out",
      await tempDir(),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("run velodata build first");
  });
});
