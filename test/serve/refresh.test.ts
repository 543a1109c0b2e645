// The minute refresh through a running server: new data, new ETags, and failures that lose nothing.
import { execFileSync } from "node:child_process";
import { readFile, rename, rm, stat, symlink, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../helpers.js";
import { editStates, startTestServer, type TestServer } from "./serve-helpers.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.handle.stop();
  server = undefined;
});

describe("refresh from a state file", () => {
  it("changes the data and the ETag of what changed, and only of that", async () => {
    server = await startTestServer();
    const before = await server.get("/vls/v3/stations/42?contract=dublin");
    const untouched = await server.get("/vls/v3/stations/30?contract=dublin");
    await editStates(server.source, (text) =>
      text.replace('"lastUpdate": "2025-02-08T16:44:06Z"', '"lastUpdate": "2025-02-08T16:45:06Z"'),
    );
    const outcome = await server.handle.refreshNow();
    expect(outcome).toMatchObject({ ok: true, error: null });

    const after = await server.get("/vls/v3/stations/42?contract=dublin");
    expect(((await after.json()) as { lastUpdate: string }).lastUpdate).toBe(
      "2025-02-08T16:45:06Z",
    );
    expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"));
    expect((await server.get("/vls/v3/stations/30?contract=dublin")).headers.get("etag")).toBe(
      untouched.headers.get("etag"),
    );
    const status = (await (await fetch(`${server.base}/status`)).json()) as Record<string, unknown>;
    expect(status.lastRefresh).toMatchObject({ ok: true });
    expect(server.lines.find((line) => line.includes("refreshed from"))).toMatch(
      /Z refreshed from .*states\.json: release [0-9a-f]+, \d+ answers? changed in \d+\.\d\d s$/,
    );
  });

  it("leaves out a state in error, said, and publishes the others; the station keeps its last state", async () => {
    server = await startTestServer();
    const station = async (number: number) =>
      (await (await server?.get(`/vls/v3/stations/${number}?contract=dublin`))?.json()) as {
        connected: boolean;
        totalStands: { availabilities: { bikes: number } };
      };
    const before = await station(42);
    await editStates(server.source, (text) =>
      text
        .replace('"bikes": 27,', '"bikes": 99,')
        .replace(
          '"bikes": 0,\n    "stands": 20,\n    "mechanicalBikes": 0,',
          '"bikes": 1,\n    "stands": 19,\n    "mechanicalBikes": 1,',
        ),
    );
    const outcome = await server.handle.refreshNow();
    expect(outcome.ok).toBe(true);
    expect(server.lines.filter((line) => line.includes("left out"))).toEqual([
      expect.stringContaining(
        "states.json: 1 state in error left out: " +
          `${join(server.source, "states.json")}[0] (dublin #42) mainStands: bikes is 99`,
      ),
    ]);
    expect(server.lines.find((line) => line.includes("left out"))).toContain(
      "this state is left out, the station keeps its last published state",
    );
    // Dublin #42 keeps its last state, marked disconnected (a missing station's); #30 moved on.
    expect(await station(42)).toMatchObject({
      connected: false,
      totalStands: { availabilities: { bikes: before.totalStands.availabilities.bikes } },
    });
    expect((await station(30)).totalStands.availabilities.bikes).toBe(1);
  });

  it("says one mistake repeated over the minute's file as one kind in its log line, the rest counted", async () => {
    server = await startTestServer();
    // 30 states with the same mistake (under the --max-missing 10% of 413), then one other.
    await editStates(server.source, (text) => {
      const file = JSON.parse(text) as { states: { status: string }[] };
      file.states.slice(0, 30).forEach((state) => {
        state.status = "open";
      });
      (file.states[30] as { status: string }).status = "shut";
      return JSON.stringify(file);
    });
    expect((await server.handle.refreshNow()).ok).toBe(true);
    const said = server.lines.filter((line) => line.includes("in error left out"));
    expect(said).toHaveLength(1);
    const states = join(server.source, "states.json");
    expect(said[0]).toContain("states.json: 31 states in error left out: ");
    // The first 3 of the kind, then one count of its 27 others in the place of the 4th, then the
    // other mistake: none of the 31 goes unsaid.
    expect(said[0]?.split("; ")).toEqual([
      expect.stringMatching(
        /\[0\] \(dublin #\d+\) status: .*got "open": this state is left out, the station keeps its last published state$/,
      ),
      expect.stringMatching(/\[1\] .*got "open": this state is left out/),
      expect.stringMatching(/\[2\] .*got "open": this state is left out/),
      expect.stringMatching(
        new RegExp(
          `${states.replaceAll("/", "\\/")}\\[3\\]…\\[29\\] status: the same in 27 more records \\(30 in all\\): .*got "open": these states are left out, each station keeps its last published state$`,
        ),
      ),
      expect.stringMatching(
        /\[30\] .*got "shut": this state is left out, the station keeps its last published state$/,
      ),
    ]);
  });

  it("keeps the last good data when the state file is broken, logs what and where, and shows it in the status", async () => {
    server = await startTestServer();
    const before = await (await server.get("/vls/v3/stations?contract=dublin")).text();
    await editStates(server.source, (text) => text.slice(0, text.length / 2));
    const outcome = await server.handle.refreshNow();
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toMatch(
      /states\.json:\d+: is not valid JSON: it ends before its JSON does/,
    );

    expect(await (await server.get("/vls/v3/stations?contract=dublin")).text()).toBe(before);
    const status = (await (await fetch(`${server.base}/status`)).json()) as Record<string, unknown>;
    expect(status.lastRefresh).toMatchObject({
      ok: false,
      error: expect.stringContaining("is not valid JSON"),
    });
    expect(server.lines.filter((line) => line.includes("refresh failed"))).toHaveLength(1);
    expect(server.lines.find((line) => line.includes("refresh failed"))).toContain(
      "keeping release",
    );

    await rm(join(server.source, "states.json"));
    expect((await server.handle.refreshNow()).error).toBe(
      `${join(server.source, "states.json")}: not found`,
    );
    // A link to a file that is gone is not an absent file: the link is what to fix.
    await symlink(join(server.source, "gone.json"), join(server.source, "states.json"));
    expect((await server.handle.refreshNow()).error).toBe(
      `${join(server.source, "states.json")}: is a link to ${join(server.source, "gone.json")}, which does not exist: fix the link`,
    );
    // A pipe: read once, or never if nobody writes it; refused, the refresh does not wait on it.
    await rm(join(server.source, "states.json"));
    execFileSync("mkfifo", [join(server.source, "states.json")]);
    expect((await server.handle.refreshNow()).error).toBe(
      `${join(server.source, "states.json")}: is not a regular file (a pipe or a device?): the server reads it again at every refresh; give a file the exporter replaces`,
    );
    expect(await (await server.get("/vls/v3/stations?contract=dublin")).text()).toBe(before);
  });

  it("refuses a states file of gigabytes before reading it, and keeps serving", async () => {
    server = await startTestServer();
    const before = await (await server.get("/vls/v3/stations?contract=dublin")).text();
    // 3 GB of holes: read whole into a buffer of 3.75 GB, whose length aborted the server (a
    // native assertion, the process gone) where it used to be read.
    const states = join(server.source, "states.json");
    const big = join(server.source, "big.json");
    await writeFile(big, "");
    await truncate(big, 3 * 2 ** 30);
    await rename(big, states);
    expect((await server.handle.refreshNow()).error).toBe(
      `${states}: is 3072 MB, more than the 511 MB a source file can have: split it`,
    );
    expect(await (await server.get("/vls/v3/stations?contract=dublin")).text()).toBe(before);
  });

  it("says when the states name a station its static source does not list that an edit adding it is published", async () => {
    server = await startTestServer();
    await editStates(server.source, (text) => text.replace('"number": 42,', '"number": 9999,'));
    const outcome = await server.handle.refreshNow();
    expect(outcome.ok).toBe(true); // that state left out, the others published
    expect(server.lines.find((line) => line.includes("left out"))).toContain(
      '(dublin #9999) number: no station 9999 in contract "dublin": this state is left out until the static source lists the station (the server knows the stations and contracts of the static source it last published: a station added there is known from the refresh after the edit, once the source has no error)',
    );
  });

  it("keeps the tree on disk in step, rewriting only the files that changed", async () => {
    const out = join(await tempDir(), "out");
    server = await startTestServer({ out });
    const changedFile = join(out, "vls/v3/stations/dublin/42.json");
    const sameFile = join(out, "vls/v3/stations/dublin/30.json");
    const sameBefore = await stat(sameFile);
    const changedBefore = await stat(changedFile);
    await editStates(server.source, (text) =>
      text.replace('"lastUpdate": "2025-02-08T16:44:06Z"', '"lastUpdate": "2025-02-08T16:47:00Z"'),
    );
    expect((await server.handle.refreshNow()).ok).toBe(true);

    expect(JSON.parse(await readFile(changedFile, "utf8")).lastUpdate).toBe("2025-02-08T16:47:00Z");
    expect((await stat(changedFile)).ino).not.toBe(changedBefore.ino); // replaced whole, by rename
    expect((await stat(sameFile)).ino).toBe(sameBefore.ino);
    expect(await readFile(join(out, "vls/v3/stations/dublin.json"), "utf8")).toBe(
      await (
        await server.get("/vls/v3/stations?contract=dublin", {
          headers: { "Accept-Encoding": "identity" },
        })
      ).text(),
    );
  });
});

describe("refresh from the simulator", () => {
  it("moves bikes between refreshes", async () => {
    const source = await startTestServer();
    await source.handle.stop();
    const { serve } = await import("../../src/commands/serve.js");
    const { memoryOutput } = await import("../../src/commands/output.js");
    const handle = await serve({
      source: source.source,
      keys: source.keysFile,
      port: 0,
      refresh: 3600,
      simulate: true,
      seed: 7,
      output: memoryOutput(),
    });
    try {
      const get = async () =>
        (await fetch(`${handle.url}/vls/v3/stations?apiKey=${source.key}`)).json();
      const before = (await get()) as { totalStands: { availabilities: { bikes: number } } }[];
      await handle.refreshNow();
      await handle.refreshNow();
      const after = (await get()) as typeof before;
      const bikes = (list: typeof before) => list.map((s) => s.totalStands.availabilities.bikes);
      expect(bikes(after)).not.toEqual(bikes(before));
      const total = (list: typeof before) => bikes(list).reduce((a, b) => a + b, 0);
      expect(total(after)).toBe(total(before));
    } finally {
      await handle.stop();
    }
  });
});
