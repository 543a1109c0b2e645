import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import {
  copyFile,
  cp,
  mkdir,
  readdir,
  readFile,
  rm,
  stat,
  utimes,
  writeFile,
} from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { readTree } from "../../src/tree/read-tree.js";
import {
  BIN,
  dublin42ReportedAt,
  fixtureCopy,
  refreshArgs,
  runCli,
  tempDir,
  whenGone,
} from "../helpers.js";
import { manifestHead, treeFiles } from "../tree/tree-helpers.js";

/**
 * `text` written to the states file at `path`, which keeps its modification time: states known at
 * the time the file before was, so that its station_status feeds keep their `last_updated`.
 */
async function writeSameTime(path: string, text: string): Promise<void> {
  const { atime, mtime } = await stat(path);
  await writeFile(path, text);
  await utimes(path, atime, mtime);
}

/** `last_updated` as GBFS v3.0 writes a file's modification time. */
const knownAt = (mtime: Date): string => `${mtime.toISOString().slice(0, 19)}Z`;

/** What a refresh says of a states file cut short: that, and the tree left as it was. */
const CUT_SHORT =
  /^velodata: .* 1 error; the tree is left as it was\n {2}error: .*states\.json:\d+: is not valid JSON: it ends before its JSON does/;

/** `velodata refresh` of `out` from the source's own states.json. */
const refreshWithItsStates = (source: string, out: string) => runCli(refreshArgs(source, out));

describe("velodata refresh", () => {
  it("rewrites only the answers whose states changed; leaves out a state in error; a broken file changes nothing", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const states = join(source, "states.json");
    const original = await readFile(states, "utf8");
    const contracts = await stat(join(out, "vls/v3/contracts.json"));
    const information = await stat(join(out, "contracts/dublin/gbfs/v3/station_information.json"));
    const hostRules = await stat(join(out, "_headers"));

    await writeSameTime(states, dublin42ReportedAt(original, "2025-02-08T16:59:00Z"));
    const result = await runCli(["refresh", "--source", source, "--state", states, "--out", out]);
    expect(result.code).toBe(0);
    // the station, its contract's list, the list of all, in v3 and in v1; its contract's GBFS
    // station_status (v3.0, and v2.3 at its two paths)
    expect(result.stdout).toMatch(/refreshed .*: 9 of \d+ answers changed/);
    expect(
      JSON.parse(await readFile(join(out, "vls/v3/stations/dublin/42.json"), "utf8")).lastUpdate,
    ).toBe("2025-02-08T16:59:00Z");
    expect((await stat(join(out, "vls/v3/contracts.json"))).ino).toBe(contracts.ino);
    const status = join(out, "contracts/dublin/gbfs/v3/station_status.json");
    expect(JSON.parse(await readFile(status, "utf8")).last_updated).toBe(
      knownAt((await stat(states)).mtime),
    );
    const statusV2 = await readFile(join(out, "contracts/dublin/gbfs/station_status.json"));
    expect(await readFile(join(out, "contracts/dublin/gbfs/v2/station_status.json"))).toEqual(
      statusV2,
    );
    expect((await stat(join(out, "contracts/dublin/gbfs/v3/station_information.json"))).ino).toBe(
      information.ino,
    );
    // The static host's rules say the same: left as they are, not uploaded again by a sync.
    expect((await stat(join(out, "_headers"))).ino).toBe(hostRules.ino);

    // A record in error is left out, said; its station keeps its last state, marked disconnected.
    const station42 = join(out, "vls/v3/stations/dublin/42.json");
    const published = JSON.parse(await readFile(station42, "utf8"));
    await writeFile(states, original.replace('"status": "OPEN"', '"status": "SHUT"'));
    const broken = await runCli(["refresh", "--source", source, "--state", states, "--out", out]);
    expect(broken.code, broken.stderr).toBe(0);
    expect(broken.stderr).toMatch(
      /^warning: .*states\.json\[0\] \(dublin #42\) status: .*: this state is left out, the station keeps its last published state$/m,
    );
    expect(JSON.parse(await readFile(station42, "utf8"))).toEqual({
      ...published,
      connected: false,
    });
    // The file itself in error: a refresh publishes nothing new, the tree it served still served.
    const before = await readFile(join(out, "vls/v3/stations.json"), "utf8");
    // A file cut short is that, not also a file that leaves every station out (--max-missing).
    await writeFile(states, original.slice(0, original.length / 2));
    const cut = await runCli(["refresh", "--source", source, "--state", states, "--out", out]);
    expect([cut.code, cut.stderr]).toEqual([1, expect.stringMatching(CUT_SHORT)]);
    expect(await readFile(join(out, "vls/v3/stations.json"), "utf8")).toBe(before);
  });

  it("says a states file cut short within its header as cut short, the tree left as it was", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const before = await readFile(join(out, "vls/v3/stations.json"), "utf8");
    // `{"sta`: the record-by-record read against the build's accepted file looks at it first.
    const states = join(source, "states.json");
    const original = await readFile(states, "utf8");
    await writeFile(states, original.slice(0, original.indexOf('"states"') + 4));
    const cut = await refreshWithItsStates(source, out);
    expect([cut.code, cut.stderr]).toEqual([1, expect.stringMatching(CUT_SHORT)]);
    expect(await readFile(join(out, "vls/v3/stations.json"), "utf8")).toBe(before);
  });

  it("says the static source's warnings when it reads the source, not at every minute (cron would mail each)", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    // True of the fixtures' real Toulouse data: a test station far from the others.
    const farAway = /stations\.csv:\d+ \(toulouse #1033\) latitude: .* km from the middle/;
    const built = await runCli(["build", "--source", source, "--out", out]);
    expect(built.stderr).toMatch(farAway);
    const states = join(source, "states.json");
    const original = await readFile(states, "utf8");
    for (const minute of ["16:59:00", "17:00:00"]) {
      await writeFile(states, dublin42ReportedAt(original, `2025-02-08T${minute}Z`));
      const refreshed = await refreshWithItsStates(source, out);
      expect([refreshed.code, refreshed.stdout]).toEqual([
        0,
        expect.stringContaining("only the changed stations rendered"),
      ]);
      expect(refreshed.stderr).not.toMatch(farAway);
    }
    // A source that changed is read again, and its warnings said again, once.
    const stations = join(source, "stations.csv");
    await writeFile(
      stations,
      (await readFile(stations, "utf8")).replace("Smithfield North", "Smithfield Nord"),
    );
    const changed = await refreshWithItsStates(source, out);
    expect([changed.code, changed.stdout]).toEqual([
      0,
      expect.not.stringContaining("only the changed stations rendered"),
    ]);
    expect(changed.stderr).toMatch(farAway);
    expect((await refreshWithItsStates(source, out)).stderr).not.toMatch(farAway);
  });

  it("names the source files in the folder it is given, the build's moved since", async () => {
    const built = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", built, "--out", out])).code).toBe(0);
    // The same files elsewhere, times kept: the same static source, so the fast path.
    const source = join(await tempDir(), "moved");
    await cp(built, source, { recursive: true, preserveTimestamps: true });
    await rm(built, { recursive: true });
    const states = join(source, "states.json");
    const file = JSON.parse(await readFile(states, "utf8")) as { states: { number: number }[] };
    file.states = file.states.filter(({ number }) => number !== 42);
    await writeFile(states, JSON.stringify(file));
    const refreshed = await refreshWithItsStates(source, out);
    expect([refreshed.code, refreshed.stdout]).toEqual([
      0,
      expect.stringContaining("only the changed stations rendered"),
    ]);
    expect(refreshed.stderr).toContain(
      `warning: ${join(source, "stations.csv")}:2 (dublin #42): no state: its last published state kept`,
    );
  });

  it("leaves an answer rendered again with the same bytes as it is, with its siblings", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const v1Station = join(out, "vls/v1/stations/toulouse/55.json");
    const v1List = join(out, "vls/v1/stations/toulouse.json");
    const before = await Promise.all([v1Station, v1List, `${v1List}.gz`].map((path) => stat(path)));
    const states = join(source, "states.json");
    const toulouse55 =
      '"number": 55,\n   "status": "OPEN",\n   "connected": true,\n   "lastUpdate": "2020-12-16';
    const original = await readFile(states, "utf8");
    expect(original).toContain(toulouse55);
    // v1 has no `connected`: its answers come out of the render with the bytes they had.
    await writeSameTime(states, original.replace(toulouse55, toulouse55.replace("true", "false")));
    const result = await runCli(["refresh", "--source", source, "--state", states, "--out", out]);
    expect(result.code, result.stderr).toBe(0);
    expect(
      JSON.parse(await readFile(join(out, "vls/v3/stations/toulouse/55.json"), "utf8")).connected,
    ).toBe(false);
    const after = await Promise.all([v1Station, v1List, `${v1List}.gz`].map((path) => stat(path)));
    expect(after.map((file) => [file.ino, file.mtimeMs])).toEqual(
      before.map((file) => [file.ino, file.mtimeMs]),
    );
    // v3: the station, its contract's list, the list of all; GBFS station_status at its 3 paths.
    expect(result.stdout).toMatch(/refreshed .*: 6 of \d+ answers changed/);
  });

  it("never dates a station_status before the newest report it lists (a states file copied with its old time)", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    const states = join(source, "states.json");
    // Before the fixtures' reports (2025-02-08 and earlier), as `cp -p` of an old export leaves it.
    const copied = new Date("2025-01-01T00:00:00Z");
    await utimes(states, copied, copied);
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const feedOf = async (contract: string) =>
      JSON.parse(
        await readFile(join(out, `contracts/${contract}/gbfs/v3/station_status.json`), "utf8"),
      ) as { last_updated: string; data: { stations: { last_reported: string }[] } };
    const newestReported = (feed: Awaited<ReturnType<typeof feedOf>>) =>
      feed.data.stations
        .map((station) => station.last_reported)
        .sort()
        .at(-1);
    // Dublin's reports (2025-02-08) are newer than the file; Lyon's (2022) and Toulouse's older.
    const dublin = await feedOf("dublin");
    expect(dublin.last_updated).toBe(newestReported(dublin));
    expect(dublin.last_updated > knownAt(copied)).toBe(true);
    for (const contract of ["lyon", "toulouse"])
      expect((await feedOf(contract)).last_updated, contract).toBe(knownAt(copied));
    // On the cron refresh's fast path too: a Dublin station reports later, the file still old.
    const original = await readFile(states, "utf8");
    await writeFile(states, dublin42ReportedAt(original, "2025-02-08T17:30:00Z"));
    await utimes(states, copied, copied);
    const refreshed = await refreshWithItsStates(source, out);
    expect([refreshed.code, refreshed.stdout]).toEqual([
      0,
      expect.stringContaining("only the changed stations rendered"),
    ]);
    expect((await feedOf("dublin")).last_updated).toBe("2025-02-08T17:30:00Z");
  });

  it("never dates a station_status after the clock, though a station reports from ahead of it", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    const states = join(source, "states.json");
    const original = await readFile(states, "utf8");
    // A Dublin station's clock an hour fast (accepted, with a warning); the file written a minute ago.
    const wholeSecond = (offset: number) => new Date(Math.floor(Date.now() / 1000) * 1000 + offset);
    await writeFile(states, dublin42ReportedAt(original, knownAt(wholeSecond(3_600_000))));
    const written = wholeSecond(-60_000);
    await utimes(states, written, written);
    const lastUpdated = async (contract: string) =>
      JSON.parse(
        await readFile(join(out, `contracts/${contract}/gbfs/v3/station_status.json`), "utf8"),
      ).last_updated as string;
    const before = knownAt(wholeSecond(0));
    const built = await runCli(["build", "--source", source, "--out", out]);
    expect([built.code, built.stderr]).toEqual([0, expect.stringContaining("ahead of")]);
    const after = knownAt(wholeSecond(1000));
    // Dublin's feed dated when it was made, not an hour ahead; Lyon's by the file, as ever.
    const dublin = await lastUpdated("dublin");
    expect(dublin >= before && dublin <= after, dublin).toBe(true);
    expect(await lastUpdated("lyon")).toBe(knownAt(written));
    // On the cron refresh's fast path too: the station an hour and a half fast now.
    await writeFile(states, dublin42ReportedAt(original, knownAt(wholeSecond(5_400_000))));
    await utimes(states, written, written);
    const since = knownAt(wholeSecond(0));
    const refreshed = await refreshWithItsStates(source, out);
    expect([refreshed.code, refreshed.stdout]).toEqual([
      0,
      expect.stringContaining("only the changed stations rendered"),
    ]);
    const until = knownAt(wholeSecond(1000));
    const spliced = await lastUpdated("dublin");
    expect(spliced >= since && spliced <= until, spliced).toBe(true);
  });

  it("dates every contract's station_status by the states file's time; the same file rewrites nothing", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    const states = join(source, "states.json");
    // Two minutes ago, then one: whole seconds, in the past (a time ahead of the clock is not taken).
    const minutesAgo = (minutes: number) =>
      new Date(Math.floor(Date.now() / 1000) * 1000 - minutes * 60_000);
    const first = minutesAgo(2);
    await utimes(states, first, first);
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const feeds = ["dublin", "lyon", "toulouse", "nantes", "besancon"].map((contract) =>
      join(out, `contracts/${contract}/gbfs/v3/station_status.json`),
    );
    const lastUpdated = () =>
      Promise.all(feeds.map(async (feed) => JSON.parse(await readFile(feed, "utf8")).last_updated));
    const built = knownAt(first);
    expect(await lastUpdated()).toEqual(feeds.map(() => built));
    const lyon = await readFile(feeds[1] as string, "utf8");

    // One Dublin station changed, the file written a minute after the build's.
    const original = await readFile(states, "utf8");
    await writeFile(states, dublin42ReportedAt(original, "2025-02-08T16:59:00Z"));
    const later = minutesAgo(1);
    await utimes(states, later, later);
    const result = await runCli(["refresh", "--source", source, "--state", states, "--out", out]);
    expect(result.code, result.stderr).toBe(0);
    // Dublin's station and lists (6) and station_status at 3 paths, each other contract's at 3.
    expect(result.stdout).toMatch(/refreshed .*: 21 of \d+ answers changed/);
    expect(await lastUpdated()).toEqual(feeds.map(() => knownAt(later)));
    // Lyon's stations did not change: its feed did only in its time.
    const lyonNow = await readFile(feeds[1] as string, "utf8");
    expect(lyonNow).not.toBe(lyon);
    expect(lyonNow.replace(knownAt(later), built)).toBe(lyon);

    const again = await runCli(["refresh", "--source", source, "--state", states, "--out", out]);
    expect(again.stdout).toMatch(/refreshed .*: 0 of \d+ answers changed/);
  });

  it("warns when the states go back in time: a file dated before the one published, or an older one replayed; published all the same", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    const states = join(source, "states.json");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const published = (await stat(states)).mtime;
    const refreshFrom = (path: string) =>
      runCli(["refresh", "--source", source, "--state", path, "--out", out]);
    // The same states, in a file dated three hours earlier (copied with its old time).
    const old = join(source, "states-old.json");
    await copyFile(states, old);
    const earlier = new Date(published.getTime() - 3 * 3600_000);
    await utimes(old, earlier, earlier);
    const dated = await refreshFrom(old);
    expect(dated.code, dated.stderr).toBe(0);
    expect(dated.stderr).toContain(
      `warning: ${old}: dated ${knownAt(earlier)} (its modification time), before the states published (${knownAt(published)}): an older states file replayed? Published all the same`,
    );
    // Every station reports later (a newer file): nothing to say.
    const text = await readFile(states, "utf8");
    const later = join(source, "states-later.json");
    await writeFile(
      later,
      text.replaceAll(/"lastUpdate": "[^"]+"/g, '"lastUpdate": "2026-11-21T10:00:00Z"'),
    );
    const newer = await refreshFrom(later);
    expect([newer.code, newer.stderr]).toEqual([0, expect.not.stringContaining("replayed")]);
    // Then the first file's records again, written now: its newest report is older.
    const replayed = join(source, "states-again.json");
    await writeFile(replayed, text);
    const again = await refreshFrom(replayed);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(
      `warning: ${replayed}: its newest report (2026-11-20T08:15:05Z) is older than the newest published (2026-11-21T10:00:00Z): an older states file replayed? Published all the same`,
    );
    // Said when it happens, not again at each minute after.
    const quiet = await refreshFrom(replayed);
    expect([quiet.code, quiet.stderr]).toEqual([0, expect.not.stringContaining("replayed")]);
  });

  it("leaves out the state of a station the static source does not list yet, then publishes it once listed", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const states = join(source, "states.json");
    const file = JSON.parse(await readFile(states, "utf8")) as {
      states: { number: number; mainStands: { bikes: number } }[];
    };
    const first = file.states[0] as (typeof file.states)[number];
    file.states.push({ ...first, number: 9999 });
    await writeFile(states, JSON.stringify(file));
    const early = await refreshWithItsStates(source, out);
    expect(early.code, early.stderr).toBe(0);
    expect(early.stderr).toContain(
      `warning: ${states}[413] (dublin #9999) number: no station 9999 in contract "dublin": this state is left out until the static source lists the station`,
    );
    expect(existsSync(join(out, "vls/v3/stations/dublin/9999.json"))).toBe(false);
    // Listed: the full refresh (the static source changed) publishes its state.
    const csv = join(source, "stations.csv");
    await writeFile(
      csv,
      `${await readFile(csv, "utf8")}dublin,9999,NEW STATION,Quay,53.3466,-6.2785,false,false,false,30,\r\n`,
    );
    const listed = await refreshWithItsStates(source, out);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stderr).not.toContain("left out");
    const published = JSON.parse(
      await readFile(join(out, "vls/v3/stations/dublin/9999.json"), "utf8"),
    );
    expect(published.totalStands.availabilities.bikes).toBe(first.mainStands.bikes);
    // On the full path too, a record in error is left out and said.
    await writeFile(
      states,
      JSON.stringify(file).replace('"number":9999,', '"number":9999,"colour":"red",'),
    );
    await writeFile(csv, `${await readFile(csv, "utf8")}\r\n`);
    const full = await refreshWithItsStates(source, out);
    expect(full.code, full.stderr).toBe(0);
    expect(full.stdout).not.toMatch(/only the changed stations rendered/);
    expect(full.stderr).toContain(
      `warning: ${states}[413] (dublin #9999) colour: unknown field: the fields here are contract, number, status, connected, lastUpdate, mainStands, overflowStands: this state is left out, the station keeps its last published state`,
    );
  });

  it("refuses a file with more states in error than --max-missing allows, saying they are in error", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const states = join(source, "states.json");
    const file = JSON.parse(await readFile(states, "utf8")) as { states: { status: string }[] };
    for (const state of file.states.slice(0, 60)) state.status = "open";
    await writeFile(states, JSON.stringify(file));
    const before = await readFile(join(out, "vls/v3/stations.json"));
    const refused = await refreshWithItsStates(source, out);
    expect([refused.code, refused.stdout]).toEqual([1, ""]);
    expect(refused.stderr).toBe(
      `velodata: ${states} leaves out 60 of the 413 stations reported before (14.5%), more than --max-missing 10% allows: fix the feed, or raise --max-missing if stations really left; ` +
        `60 states in error left out (${states}[0] (dublin #42) status: must be one of "OPEN", "CLOSED", got "open", …); the tree is left as it was\n`,
    );
    expect(await readFile(join(out, "vls/v3/stations.json"))).toEqual(before);
  });

  it("names the stations a refused file has no record of, its state in error said apart, on either path", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    // Dublin's feed broke (its 114 stations gone), and one Toulouse state is in error.
    const states = join(source, "states.json");
    const file = JSON.parse(await readFile(states, "utf8")) as {
      states: { contract: string; number: number; status: string }[];
    };
    file.states = file.states.filter(({ contract }) => contract !== "dublin");
    const toulouse = file.states.findIndex(({ contract }) => contract === "toulouse");
    (file.states[toulouse] as { status: string }).status = "open";
    await writeFile(states, JSON.stringify(file));
    const refusal =
      `velodata: ${states} leaves out 115 of the 413 stations reported before (27.8%), more than --max-missing 10% allows: fix the feed, or raise --max-missing if stations really left; ` +
      "114 stations not in it (dublin #42, dublin #30, dublin #54, dublin #108, dublin #20, dublin #56, dublin #6, dublin #18, dublin #32, dublin #52 and 104 more); " +
      `1 state in error left out (${states}[${toulouse}] (toulouse #55) status: must be one of "OPEN", "CLOSED", got "open"); the tree is left as it was\n`;
    const fast = await refreshWithItsStates(source, out);
    expect([fast.code, fast.stderr]).toEqual([1, refusal]);
    // The static source changed: a refresh that renders everything says it in the same words.
    const contracts = join(source, "contracts.json");
    await writeFile(contracts, `${await readFile(contracts, "utf8")}\n`);
    const full = await refreshWithItsStates(source, out);
    expect([full.code, full.stderr]).toEqual([1, refusal]);
  });

  it("says nothing of a replay when the station with the newest report leaves the feed, on either path", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    const states = join(source, "states.json");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const original = await readFile(states, "utf8");
    const refreshed = () => refreshWithItsStates(source, out);
    // Dublin #42 reports a day after every other station: the newest report published.
    await writeFile(states, dublin42ReportedAt(original, "2026-11-21T10:00:00Z"));
    const newest = await refreshed();
    expect([newest.code, newest.stderr]).toEqual([0, expect.not.stringContaining("replayed")]);
    // Then it leaves the feed: its last state is kept (said), the others' reports are older.
    const file = JSON.parse(original) as { states: { contract: string; number: number }[] };
    file.states = file.states.filter(
      ({ contract, number }) => !(contract === "dublin" && number === 42),
    );
    await writeFile(states, JSON.stringify(file));
    for (const minute of [1, 2]) {
      const gone = await refreshed();
      expect(gone.code, gone.stderr).toBe(0);
      expect(gone.stdout, `minute ${minute}`).toMatch(/only the changed stations rendered/);
      expect(gone.stderr, `minute ${minute}`).not.toContain("replayed");
    }
    // The same on a full refresh (the static source changed: a contract's text edited).
    const contracts = join(source, "contracts.json");
    await writeFile(contracts, `${await readFile(contracts, "utf8")}\n`);
    const full = await refreshed();
    expect(full.code, full.stderr).toBe(0);
    expect(full.stdout).not.toMatch(/only the changed stations rendered/);
    expect(full.stderr).not.toContain("replayed");
    // The stations still reported all going back in time are still said.
    await writeFile(
      states,
      JSON.stringify(file).replaceAll(
        /"lastUpdate":"[^"]+"/g,
        '"lastUpdate":"2024-01-01T00:00:00Z"',
      ),
    );
    const back = await refreshed();
    expect(back.stderr).toContain(
      "its newest report (2024-01-01T00:00:00Z) is older than the newest published (2026-11-20T08:15:05Z)",
    );
  });

  it("warns on stderr of a stalled feed, the share of stations not reported lately past --max-stale", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const states = join(source, "states.json");
    const original = JSON.parse(await readFile(states, "utf8")) as {
      states: { lastUpdate: string | null }[];
    };
    const reportedAt = async (at: Date) => {
      const lastUpdate = `${at.toISOString().slice(0, 19)}Z`;
      const all = original.states.map((state) => ({ ...state, lastUpdate }));
      await writeFile(states, JSON.stringify({ states: all }));
    };
    const refreshing = (...more: string[]) =>
      runCli(["refresh", "--source", source, "--state", states, "--out", out, ...more]);
    const count = original.states.length;

    await reportedAt(new Date(Date.now() - 60_000));
    const fresh = await refreshing();
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stderr).not.toContain("stalled");

    await reportedAt(new Date(Date.now() - 3_600_000));
    const stalled = await refreshing();
    expect(stalled.code, stalled.stderr).toBe(0);
    expect(stalled.stderr).toContain(
      `warning: ${states}: ${count} of ${count} stations not reported for 15 minutes or more (100%, more than --max-stale 25%): is the feed stalled?`,
    );
    const tolerated = await refreshing("--stale-minutes", "90");
    expect(tolerated.stderr).not.toContain("stalled");
  });

  it("keeps the base URL the tree names when --base-url is left out, on the fast path and a full one", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    const build = ["build", "--source", source, "--out", out];
    expect((await runCli([...build, "--base-url", "https://bikes.example.org"])).code).toBe(0);
    const states = join(source, "states.json");
    const original = await readFile(states, "utf8");
    const refreshAt = (lastUpdate: string, ...more: string[]) =>
      writeFile(states, original.replace("2025-02-08T16:44:06Z", lastUpdate)).then(() =>
        runCli(["refresh", "--source", source, "--state", states, "--out", out, ...more]),
      );
    const named = async () => {
      const discovery = await readFile(join(out, "contracts/dublin/gbfs/gbfs.json"), "utf8");
      const servers = JSON.parse(await readFile(join(out, "openapi.json"), "utf8")).servers;
      return { feed: JSON.parse(discovery).data.en.feeds[0].url, servers };
    };

    const fast = await refreshAt("2025-02-08T16:59:00Z");
    expect(fast.stdout).toContain("static source unchanged: only the changed stations rendered");
    expect(await named()).toEqual({
      feed: expect.stringMatching(/^https:\/\/bikes\.example\.org\/contracts\/dublin\/gbfs\//),
      servers: [{ url: "https://bikes.example.org" }],
    });
    // Given, it is the new one, and kept from then on, also when everything is rendered again.
    const moved = await refreshAt("2025-02-08T17:00:00Z", "--base-url", "https://api.example.net");
    expect(moved.code).toBe(0);
    expect((await named()).servers).toEqual([{ url: "https://api.example.net" }]);
    const contracts = join(source, "contracts.json");
    await writeFile(contracts, `${await readFile(contracts, "utf8")}\n`);
    const full = await refreshAt("2025-02-08T17:01:00Z");
    expect(full.code).toBe(0);
    expect(full.stdout).not.toContain("static source unchanged");
    expect((await named()).servers).toEqual([{ url: "https://api.example.net" }]);
  });

  it("keeps the GBFS ttl the tree was built with (--refresh), and renders every feed again for another", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    const build = ["build", "--source", source, "--out", out, "--refresh", "300"];
    expect((await runCli(build)).code).toBe(0);
    const states = join(source, "states.json");
    const original = await readFile(states, "utf8");
    const ttlOf = async (contract: string, feed = "station_status") =>
      JSON.parse(await readFile(join(out, `contracts/${contract}/gbfs/v3/${feed}.json`), "utf8"))
        .ttl;
    expect(await ttlOf("dublin")).toBe(300);
    // The feeds of the static source too: kept no longer than station_status.
    expect(await ttlOf("dublin", "station_information")).toBe(300);
    // A static host's rules say the same of the dynamic answers.
    const hostMaxAge = async () =>
      /\/contracts\/:contract\/gbfs\/v3\/station_status\.json\n(?:.*\n)*?\s+Cache-Control: public, max-age=(\d+)/.exec(
        await readFile(join(out, "_headers"), "utf8"),
      )?.[1];
    expect(await hostMaxAge()).toBe("300");
    // A cron line without --refresh: the tree's, on the fast path.
    await writeFile(states, original.replace("2025-02-08T16:44:06Z", "2025-02-08T16:59:00Z"));
    const kept = await runCli(["refresh", "--source", source, "--state", states, "--out", out]);
    expect(kept.stdout).toContain("static source unchanged: only the changed stations rendered");
    expect(await ttlOf("dublin")).toBe(300);
    // Another interval: every contract's feeds say it, those of contracts with no change too.
    const again = ["refresh", "--source", source, "--state", states, "--out", out];
    const changed = await runCli([...again, "--refresh", "120"]);
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout).not.toContain("static source unchanged");
    expect([await ttlOf("dublin"), await ttlOf("lyon")]).toEqual([120, 120]);
    expect(await ttlOf("lyon", "station_information")).toBe(120);
    expect(await hostMaxAge()).toBe("120");
    expect((await runCli(again)).stdout).toContain("static source unchanged");
    expect(await ttlOf("lyon")).toBe(120);
  });

  it("keeps the base URL through a manifest of another format or one that records none (its answers name it), and warns when nothing names one", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    const build = ["build", "--source", source, "--out", out];
    expect((await runCli([...build, "--base-url", "https://bikes.example.org"])).code).toBe(0);
    const refresh = ["refresh", "--source", source, "--state", join(source, "states.json")];
    const servers = async () =>
      JSON.parse(await readFile(join(out, "openapi.json"), "utf8")).servers[0].url;
    const manifestPath = readTree(out).release.manifest;
    const manifest = await manifestHead(manifestPath);
    // Another version's manifest: every file checked and rewritten, the address kept.
    await writeFile(manifestPath, JSON.stringify({ ...manifest, format: 2 }));
    const upgraded = await runCli([...refresh, "--out", out]);
    expect(upgraded.code, upgraded.stderr).toBe(0);
    expect(await servers()).toBe("https://bikes.example.org");
    // A manifest that records none (an older velodata's): the address its answers name is kept,
    // as the first cron refresh after an upgrade must not publish every link to the default's.
    const unrecord = async () => {
      const { baseUrl: _, ...without } = await manifestHead(readTree(out).release.manifest);
      await writeFile(readTree(out).release.manifest, JSON.stringify({ ...without, format: 2 }));
    };
    await unrecord();
    const older = await runCli([...refresh, "--out", out]);
    expect(older.code, older.stderr).toBe(0);
    expect(older.stderr).not.toContain("records no base URL");
    expect(await servers()).toBe("https://bikes.example.org");
    const gbfs = JSON.parse(await readFile(join(out, "gbfs/manifest.json"), "utf8")) as {
      data: { datasets: { versions: { url: string }[] }[] };
    };
    expect(gbfs.data.datasets[0]?.versions[0]?.url).toMatch(/^https:\/\/bikes\.example\.org\//);
    // Neither the manifest nor the answers name one: said, not done in silence.
    await unrecord();
    const openapi = join(readTree(out).release.tree, "openapi.json");
    const { servers: __, ...document } = JSON.parse(await readFile(openapi, "utf8"));
    await writeFile(openapi, JSON.stringify(document));
    const unrecorded = await runCli([...refresh, "--out", out]);
    expect(unrecorded.stderr).toContain(
      `warning: ${out} records no base URL (a tree of an older velodata?): its GBFS feeds and OpenAPI document now name http://127.0.0.1:8080`,
    );
  });

  it("keeps the ttl a tree's feeds say when no state beside it says one (a tree serve --out wrote)", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect(
      (await runCli(["build", "--source", source, "--out", out, "--refresh", "30"])).code,
    ).toBe(0);
    // As serve --out leaves a tree: no refresh state beside it.
    const { release } = readTree(out);
    await rm(join(release.folder, "refresh-cache.json"));
    const refreshed = await refreshWithItsStates(source, out);
    expect(refreshed.code, refreshed.stderr).toBe(0);
    const status = JSON.parse(
      await readFile(join(out, "contracts/lyon/gbfs/v3/station_status.json"), "utf8"),
    );
    expect(status.ttl).toBe(30);
  });

  it("refuses a states file that leaves out too many stations reported before (an empty export)", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const before = await readFile(join(out, "vls/v3/stations.json"), "utf8");
    const states = join(source, "states-empty.json");
    await writeFile(states, '{"states": []}');
    const refresh = ["refresh", "--source", source, "--state", states, "--out", out];
    const refused = await runCli(refresh);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `${states} leaves out 413 of the 413 stations reported before (100%), more than --max-missing 10% allows`,
    );
    // Nothing is published: no warning says a station is.
    expect(refused.stderr).not.toContain("published as CLOSED");
    expect(await readFile(join(out, "vls/v3/stations.json"), "utf8")).toBe(before);
    // A feed that misses a station or two (accepted) is still held to the stations it reported.
    const file = JSON.parse(await readFile(join(source, "states.json"), "utf8"));
    file.states.shift();
    const short = join(source, "states-short.json");
    await writeFile(short, JSON.stringify(file));
    expect(
      (await runCli(["refresh", "--source", source, "--state", short, "--out", out])).code,
    ).toBe(0);
    const shortBefore = await readFile(join(out, "vls/v3/stations.json"), "utf8");
    const again = await runCli(refresh);
    // The station it missed kept its last state in the tree: it is held to that one too.
    expect([again.code, again.stderr]).toEqual([
      1,
      expect.stringContaining(
        `${states} leaves out 413 of the 413 stations reported before (100%)`,
      ),
    ]);
    expect(await readFile(join(out, "vls/v3/stations.json"), "utf8")).toBe(shortBefore);
    // Stations really left: the operator says so.
    expect((await runCli([...refresh, "--max-missing", "100"])).code).toBe(0);
    expect(await readFile(join(out, "vls/v3/stations.json"), "utf8")).not.toBe(before);
  });

  it("holds a refresh that renders everything to --max-missing too, and a source that drops stations to --max-removed; those it dropped are gone, not missing", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const before = await readFile(join(out, "vls/v3/stations.json"), "utf8");
    // The static source changed: the refresh renders everything.
    const contracts = join(source, "contracts.json");
    await writeFile(contracts, `${await readFile(contracts, "utf8")}\n`);
    const empty = join(source, "states-empty.json");
    await writeFile(empty, '{"states": []}');
    const refused = await runCli(["refresh", "--source", source, "--state", empty, "--out", out]);
    expect([refused.code, refused.stderr]).toEqual([
      1,
      expect.stringContaining(
        `${empty} leaves out 413 of the 413 stations reported before (100%), more than --max-missing 10% allows`,
      ),
    ]);
    expect(refused.stderr).not.toContain("published as CLOSED");
    expect(await readFile(join(out, "vls/v3/stations.json"), "utf8")).toBe(before);

    // Dublin's 114 stations (28%) taken out of the source, and their states with them: they left.
    const stations = join(source, "stations.csv");
    const rows = (await readFile(stations, "utf8")).split("\n");
    await writeFile(stations, rows.filter((row) => !row.startsWith("dublin,")).join("\n"));
    const file = JSON.parse(await readFile(join(source, "states.json"), "utf8"));
    file.states = file.states.filter((state: { contract: string }) => state.contract !== "dublin");
    const left = join(source, "states-left.json");
    await writeFile(left, JSON.stringify(file));
    const shrink = ["refresh", "--source", source, "--state", left, "--out", out];
    // A tenth of the network gone at once is refused (a --source mistyped in a crontab names
    // another network's folder): the operator says the stations really left.
    const wrong = await runCli(shrink);
    expect([wrong.code, wrong.stderr]).toEqual([
      1,
      expect.stringContaining(
        `${source} no longer lists 114 of the 413 stations published (27.6%), more than --max-removed 10% allows; the tree is left as it was`,
      ),
    ]);
    expect(await readFile(join(out, "vls/v3/stations.json"), "utf8")).toBe(before);
    const result = await runCli([...shrink, "--max-removed", "30"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain("static source unchanged");
    expect(existsSync(join(out, "vls/v3/stations/dublin/42.json"))).toBe(false);
    // Named, the first few: a station an exporter lost would otherwise go with a count of files.
    expect(result.stderr).toMatch(
      /warning: 114 stations no longer listed by the static source, no longer published: (dublin #\d+ "[^"]+", ){4}dublin #\d+ "[^"]+" \(and 109 more\)\n/,
    );
  });

  it("says why it checked every file: a manifest of another format, or an update that did not finish", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const refresh = ["refresh", "--source", source, "--state", join(source, "states.json")];
    const { release } = readTree(out);
    const manifest = await manifestHead(release.manifest);
    await writeFile(release.manifest, JSON.stringify({ ...manifest, format: 2 }));
    const older = await runCli([...refresh, "--out", out]);
    expect(older.stdout).toContain(
      "every file checked, as its manifest has format 2, another version of velodata's",
    );
    const after = readTree(out).release;
    await writeFile(after.dirty, "{}");
    const interrupted = await runCli([...refresh, "--out", out]);
    expect(interrupted.stdout).toContain(
      "every file checked, as the previous update of this tree did not finish",
    );
  });

  it("repairs a tree mixed with another release's file, though its manifest says it is current", async () => {
    // The issue's reproduction: build A into out, B into outB, one file of outB over out's.
    const source = await fixtureCopy();
    const dir = await tempDir();
    const [out, outB, fresh] = ["out", "outB", "fresh"].map((name) => join(dir, name)) as [
      string,
      string,
      string,
    ];
    const stateA = join(source, "states.json");
    const stateB = join(dir, "states-b.json");
    const original = await readFile(stateA, "utf8");
    await writeFile(stateB, dublin42ReportedAt(original, "2025-02-08T17:00:00Z"));
    for (const [state, tree] of [
      [stateA, out],
      [stateB, outB],
      [stateA, fresh],
    ] as const)
      expect(
        (await runCli(["build", "--source", source, "--state", state, "--out", tree])).code,
      ).toBe(0);
    const station = "vls/v3/stations/dublin/42.json";
    await copyFile(join(outB, station), join(out, station));
    expect(treeFiles(out)).not.toEqual(treeFiles(fresh));

    const result = await runCli(["refresh", "--source", source, "--state", stateA, "--out", out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/1 of \d+ answers changed, 1 repaired/);
    expect(treeFiles(out)).toEqual(treeFiles(fresh));
  });

  it("deletes the files of answers that left the release", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const gone = join(out, "vls/v3/stations/dublin/42.json");
    expect(existsSync(gone)).toBe(true);
    const csv = join(source, "stations.csv");
    const lines = (await readFile(csv, "utf8")).split("\n");
    await writeFile(csv, lines.filter((line) => !line.startsWith("dublin,42,")).join("\n"));
    const states = join(source, "states.json");
    const parsed = JSON.parse(await readFile(states, "utf8")) as {
      states: { contract: string; number: number }[];
    };
    parsed.states = parsed.states.filter((s) => !(s.contract === "dublin" && s.number === 42));
    await writeFile(states, JSON.stringify(parsed));
    const result = await refreshWithItsStates(source, out);
    expect(result.code, result.stderr).toBe(0);
    // The station's v3 and v1 answers.
    expect(result.stdout).toMatch(/, 2 removed/);
    expect(existsSync(gone)).toBe(false);
    expect(existsSync(join(out, "vls/v1/stations/dublin/42.json"))).toBe(false);
    expect(existsSync(join(out, "vls/v3/stations/dublin/30.json"))).toBe(true);
  });

  it("leaves no empty folder of a contract that left (renamed): the tree's folders are a build's", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    for (const name of ["contracts.json", "stations.csv", "states.json"]) {
      const path = join(source, name);
      await writeFile(path, (await readFile(path, "utf8")).replaceAll("besancon", "besak"));
    }
    const states = join(source, "states.json");
    const result = await runCli(["refresh", "--source", source, "--state", states, "--out", out]);
    expect(result.code, result.stderr).toBe(0);
    const built = join(await tempDir(), "built");
    expect((await runCli(["build", "--source", source, "--out", built])).code).toBe(0);
    const folders = async (root: string) =>
      (await readdir(root, { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isDirectory())
        .map((entry) => relative(root, join(entry.parentPath, entry.name)))
        .sort();
    expect(await folders(out)).toContain("vls/v3/stations/besak");
    expect(await folders(out)).toEqual(await folders(built));
  });

  it("sets aside the release folders a stopped build left, removed by a process of its own, and says so", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const releases = join(out, "..", ".out.velodata", "releases");
    const served = await readdir(releases);
    // A build killed while writing: its release folder, half full.
    const left = join(releases, "mzz0-abcdef");
    await mkdir(join(left, "tree", "vls"), { recursive: true });
    await writeFile(join(left, "tree", "vls", "contracts.json"), "[");
    const refresh = ["refresh", "--source", source, "--state", join(source, "states.json")];
    const result = await runCli([...refresh, "--out", out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "1 leftover release folder (a stopped build's or removal's) handed to a remover",
    );
    expect(await readdir(releases)).toEqual(served);
    await whenGone(join(out, "..", ".out.velodata", "removing", "mzz0-abcdef"));
    const again = await runCli([...refresh, "--out", out]);
    expect(again.stdout).not.toContain("leftover");
  });

  it("takes no release a build is still removing for a stopped build's", async () => {
    const source = join(await tempDir(), "source");
    expect((await runCli(["synth", "--stations", "1500", "--out", source])).code).toBe(0);
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    // Once it says "built", the build has let the lock go and removes the release it replaced.
    const build = spawn(process.execPath, [BIN, "build", "--source", source, "--out", out]);
    const exited = new Promise((resolve) => build.once("exit", resolve));
    let said = "";
    await new Promise<void>((resolve) =>
      build.stdout.on("data", (chunk) => {
        said += chunk;
        if (said.includes("built ")) resolve();
      }),
    );
    const releases = await readdir(join(out, "..", ".out.velodata", "releases"));
    const states = join(source, "states-1.json");
    const refresh = await runCli(["refresh", "--source", source, "--state", states, "--out", out]);
    await exited;
    expect(releases).toHaveLength(1);
    expect(refresh.code, refresh.stderr).toBe(0);
    expect(refresh.stdout).not.toContain("a build left");
  }, 60_000); // three writes of a 1,500-station tree on a disk

  it("leaves nothing for a next run beside the tree when another writer holds it", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const folder = readTree(out).release.folder;
    const before = (await readdir(folder)).sort();
    const states = join(source, "states.json");
    await writeSameTime(
      states,
      dublin42ReportedAt(await readFile(states, "utf8"), "2025-02-08T16:59:00Z"),
    );
    // Another writer, alive: its pid in the tree's lock.
    const writer = spawn("sleep", ["60"]);
    try {
      await writeFile(join(out, "..", ".out.velodata", "lock"), `${writer.pid}\n`);
      const refused = await runCli([
        "refresh",
        "--source",
        source,
        "--state",
        states,
        "--out",
        out,
      ]);
      expect([refused.code, refused.stderr]).toEqual([
        1,
        expect.stringContaining(`is being written by another velodata process (pid ${writer.pid})`),
      ]);
    } finally {
      writer.kill();
    }
    // The refresh's state and the states file it would have kept were not left behind.
    expect((await readdir(folder)).sort()).toEqual(before);
  });

  it("refuses a folder that holds no velodata tree, with what to do for what is there", async () => {
    const empty = await tempDir();
    const file = join(await tempDir(), "out.txt");
    await writeFile(file, "mine");
    const others = await tempDir();
    await writeFile(join(others, "notes.txt"), "mine");
    const [toEmpty, toFile, toOthers] = await Promise.all(
      [empty, file, others].map((out) =>
        runCli([
          "refresh",
          "--source",
          "fixtures",
          "--state",
          "fixtures/states.json",
          "--out",
          out,
        ]),
      ),
    );
    for (const result of [toEmpty, toFile, toOthers]) expect(result?.code).toBe(1);
    expect(toEmpty?.stderr).toContain(`no velodata tree at ${empty}`);
    expect(toEmpty?.stderr).toContain(`run velodata build --out ${empty} first`);
    expect(toFile?.stderr).toContain(`no velodata tree at ${file}: it is a file`);
    expect(toOthers?.stderr).toContain(
      `no velodata tree at ${others}: the folder holds other files`,
    );
    for (const result of [toFile, toOthers])
      expect(result?.stderr).toContain("give the folder a velodata build wrote (its --out)");
  });
});
