// A cron refresh whose static source was edited with an error: the edit is refused, the minute's
// states are published all the same against the source the tree has, and the run ends in error
// until the source is fixed (see static-refused.ts).
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dublin42ReportedAt, fixtureCopy, refreshArgs, runCli, tempDir } from "../helpers.js";

const station = async (out: string, contract: string, number: number) =>
  JSON.parse(await readFile(join(out, `vls/v3/stations/${contract}/${number}.json`), "utf8")) as {
    lastUpdate: string;
    mainStands: { capacity: number };
  };

// A station of the fixtures' stations.csv up to its capacity (35).
const avondale = "dublin,108,AVONDALE ROAD,Avondale Road,53.359405,-6.276142,false,false,false,";

describe("velodata refresh, its static source edited with an error", () => {
  it("publishes the minute's states against the source last published, and ends in error until it is fixed", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const stationsFile = join(source, "stations.csv");
    const stations = await readFile(stationsFile, "utf8");
    const statesFile = join(source, "states.json");
    const states = await readFile(statesFile, "utf8");
    expect(stations).toContain(`${avondale}35,`);
    // A typo in one station's capacity, and a new report of another station.
    await writeFile(stationsFile, stations.replace(`${avondale}35,`, `${avondale}ten,`));
    for (const reported of ["2025-02-08T17:01:00Z", "2025-02-08T17:02:00Z"]) {
      await writeFile(statesFile, dublin42ReportedAt(states, reported));
      const minute = await runCli(refreshArgs(source, out));
      expect(minute.code, minute.stderr).toBe(1);
      expect(minute.stderr).toContain(
        "velodata: the source data has 1 error; its change is not published: this minute's states were, against the static source last published",
      );
      expect(minute.stderr).toContain("(dublin #108) capacity");
      expect(minute.stdout).toMatch(
        /refreshed .*: \d+ of \d+ answers changed, the static source's change refused \(below\): only the changed stations rendered/,
      );
      // Each minute: the state published, the edit not (the source is read again each time).
      expect((await station(out, "dublin", 42)).lastUpdate).toBe(reported);
      expect((await station(out, "dublin", 108)).mainStands.capacity).toBe(35);
    }
    // Fixed: the edit is published with the next minute, which ends well.
    await writeFile(stationsFile, stations.replace(`${avondale}35,`, `${avondale}36,`));
    const fixed = await runCli(refreshArgs(source, out));
    expect([fixed.code, fixed.stderr]).toEqual([0, expect.not.stringContaining("error")]);
    expect((await station(out, "dublin", 108)).mainStands.capacity).toBe(36);
    expect((await station(out, "dublin", 42)).lastUpdate).toBe("2025-02-08T17:02:00Z");
  });

  it("publishes the minute's states when the source lost more stations than --max-removed allows", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    // Dublin's rows gone from stations.csv (a file cut short, a wrong export); the feed still
    // reports them, one of them anew.
    const stationsFile = join(source, "stations.csv");
    const rows = (await readFile(stationsFile, "utf8")).split("\n");
    await writeFile(stationsFile, rows.filter((row) => !row.startsWith("dublin,")).join("\n"));
    const statesFile = join(source, "states.json");
    await writeFile(
      statesFile,
      dublin42ReportedAt(await readFile(statesFile, "utf8"), "2025-02-08T17:03:00Z"),
    );
    const minute = await runCli(refreshArgs(source, out));
    expect([minute.code, minute.stderr]).toEqual([
      1,
      expect.stringContaining(
        `${source} no longer lists 114 of the 413 stations published (27.6%), more than --max-removed 10% allows; its change is not published: this minute's states were, against the static source last published`,
      ),
    ]);
    expect((await station(out, "dublin", 42)).lastUpdate).toBe("2025-02-08T17:03:00Z");
  });

  it("publishes the minute's states when a static file cannot be read (a folder now), as when it is gone", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const stationsFile = join(source, "stations.csv");
    await rm(stationsFile);
    await mkdir(stationsFile);
    const statesFile = join(source, "states.json");
    const states = await readFile(statesFile, "utf8");
    await writeFile(statesFile, dublin42ReportedAt(states, "2025-02-08T17:04:00Z"));
    const minute = await runCli(refreshArgs(source, out));
    expect([minute.code, minute.stderr]).toEqual([
      1,
      expect.stringContaining(
        `velodata: ${stationsFile} is a folder where a file is expected: give the path of a file; its change is not published: this minute's states were, against the static source last published`,
      ),
    ]);
    expect((await station(out, "dublin", 42)).lastUpdate).toBe("2025-02-08T17:04:00Z");
    // The states file gone too: nothing published, said once, the tree left as it was.
    const missing = join(source, "gone.json");
    const gone = await runCli(["refresh", "--source", source, "--state", missing, "--out", out]);
    expect([gone.code, gone.stderr]).toEqual([
      1,
      `warning: nor were the minute's states published: state file not found: ${missing}\nvelodata: ${stationsFile} is a folder where a file is expected: give the path of a file; the tree is left as it was\n`,
    ]);
  });

  it("names the files gone when its source folder empties (its file system unmounted)", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const statesFile = join(await tempDir(), "states.json");
    const states = await readFile(join(source, "states.json"), "utf8");
    await writeFile(statesFile, dublin42ReportedAt(states, "2025-02-08T17:05:00Z"));
    await rm(join(source, "contracts.json"));
    await rm(join(source, "stations.csv"));
    const minute = await runCli([...refreshArgs(source, out), "--state", statesFile]);
    const files = `${join(source, "contracts.json")}, ${join(source, "stations.json")} or ${join(source, "stations.csv")}`;
    expect([minute.code, minute.stderr]).toEqual([
      1,
      expect.stringContaining(
        `velodata: missing source files: ${files}; its change is not published: this minute's states were, against the static source last published\n`,
      ),
    ]);
    expect((await station(out, "dublin", 42)).lastUpdate).toBe("2025-02-08T17:05:00Z");
    // The states file gone as well: nothing published, the files named all the same.
    const gone = await runCli([...refreshArgs(source, out), "--state", join(source, "gone.json")]);
    expect([gone.code, gone.stderr]).toEqual([
      1,
      expect.stringContaining(
        `velodata: missing source files: ${files}; the tree is left as it was\n`,
      ),
    ]);
  });

  it("publishes nothing when the minute's states are in error too", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const before = await readFile(join(out, "vls/v3/stations/dublin.json"), "utf8");
    const stationsFile = join(source, "stations.csv");
    const stations = await readFile(stationsFile, "utf8");
    await writeFile(stationsFile, stations.replace(`${avondale}35,`, `${avondale}ten,`));
    await writeFile(join(source, "states.json"), "{ not json");
    const minute = await runCli(refreshArgs(source, out));
    expect(minute.code).toBe(1);
    expect(minute.stderr).toContain("warning: nor were the minute's states published: ");
    expect(minute.stderr).toContain("the tree is left as it was");
    expect(await readFile(join(out, "vls/v3/stations/dublin.json"), "utf8")).toBe(before);
  });

  it("says once what it leaves when the minute's states are refused too: cron mails each line", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const stationsFile = join(source, "stations.csv");
    const stations = await readFile(stationsFile, "utf8");
    await writeFile(stationsFile, stations.replace(`${avondale}35,`, `${avondale}ten,`));
    // Too many stations left out: why said in the warning, what it leaves in the error alone.
    const statesFile = join(source, "states.json");
    const { states } = JSON.parse(await readFile(statesFile, "utf8")) as { states: unknown[] };
    await writeFile(statesFile, JSON.stringify({ states: states.slice(0, 300) }));
    const few = await runCli(refreshArgs(source, out));
    expect(few.code).toBe(1);
    expect(few.stderr).toMatch(
      /^warning: nor were the minute's states published: .*states\.json leaves out 113 of the 413 stations reported before .* if stations really left; 113 stations not in it \(toulouse #198, .* and 103 more\)\nvelodata: the source data has 1 error; the tree is left as it was\n/,
    );
    // A states file missing: the full read's refusal too, said once.
    const missing = join(source, "gone.json");
    const gone = await runCli(["refresh", "--source", source, "--state", missing, "--out", out]);
    expect([gone.code, gone.stderr]).toEqual([
      1,
      `velodata: state file not found: ${missing}; the tree is left as it was\n`,
    ]);
  });
});
