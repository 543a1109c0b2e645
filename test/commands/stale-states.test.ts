// validate and build say when a states file's stations went unreported too long, as refresh and
// serve do: a stuck exporter writes a valid file, and the first publish is where to hear of it.
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { fixtureCopy, runCli, tempDir } from "../helpers.js";

const STALLED =
  /^warning: \S*states\.json: (\d+) of 413 stations not reported for (\d+) minutes or more \(\d+%, more than --max-stale (\d+)%\): is the feed stalled\? (.*)$/m;

let source: string;
let statesFile: string;

/** The fixtures' states, `old` of them last reported two days ago and the rest a minute ago. */
async function reportedAgo(old: number): Promise<void> {
  const file = JSON.parse(await readFile(statesFile, "utf8")) as {
    states: { lastUpdate: string }[];
  };
  const at = (ms: number) => new Date(Date.now() - ms).toISOString().replace(/\.\d+Z$/, "Z");
  file.states.forEach((state, index) => {
    state.lastUpdate = index < old ? at(2 * 86_400_000) : at(60_000);
  });
  await writeFile(statesFile, JSON.stringify(file));
}

beforeAll(async () => {
  source = await fixtureCopy();
  statesFile = join(source, "states.json");
});

describe("states not reported for long", () => {
  it("are said by validate, counted among its warnings, and by build, which publishes them all the same", async () => {
    await reportedAgo(413);
    const validated = await runCli(["validate", "--source", source]);
    expect(validated.code).toBe(0);
    const said = validated.stderr.match(STALLED);
    expect(said?.slice(1)).toEqual([
      "413",
      "15",
      "25",
      "(build publishes them all the same, each with its lastUpdate; refresh and serve warn of it too)",
    ]);
    // The fixtures' far station, and this.
    expect(validated.stdout).toMatch(/ is valid: .* \(2 warnings\)$/m);

    const out = join(await tempDir(), "out");
    const built = await runCli(["build", "--source", source, "--out", out]);
    expect(built.code).toBe(0);
    expect(built.stderr.match(STALLED)?.slice(1)).toEqual([
      "413",
      "15",
      "25",
      "Published all the same, each station with its lastUpdate",
    ]);
  });

  it("are not said under the share --max-stale allows, nor when reported within --stale-minutes", async () => {
    // 100 of 413 (24%): under the default 25%.
    await reportedAgo(100);
    expect((await runCli(["validate", "--source", source])).stderr).not.toMatch(STALLED);
    await reportedAgo(413);
    const limits = ["--stale-minutes", "4000"];
    expect((await runCli(["validate", "--source", source, ...limits])).stderr).not.toMatch(STALLED);
    const allowed = ["--max-stale", "100"];
    expect((await runCli(["validate", "--source", source, ...allowed])).stderr).not.toMatch(
      STALLED,
    );
    const out = join(await tempDir(), "out");
    const built = await runCli(["build", "--source", source, "--out", out, ...allowed]);
    expect(built.code).toBe(0);
    expect(built.stderr).not.toMatch(STALLED);
  });

  it("say what is published of the stations without a state, counted apart among the stale ones", async () => {
    const partial = await fixtureCopy();
    const path = join(partial, "states.json");
    const file = JSON.parse(await readFile(path, "utf8")) as { states: unknown[] };
    file.states.splice(0, 30);
    await writeFile(path, JSON.stringify(file));
    const out = join(await tempDir(), "out");
    const built = await runCli(["build", "--source", partial, "--out", out]);
    expect(built.stderr).toContain(
      `warning: ${path}: 383 of 413 stations not reported for 15 minutes or more and 30 without a state in the last read (100%, more than --max-stale 25%): ` +
        "is the feed stalled, or leaving stations out? Published all the same, each station with its lastUpdate, the 30 without a state CLOSED with lastUpdate null\n",
    );
  });

  it("are not said again when the source has no states file: every station is published as never reported", async () => {
    const bare = await fixtureCopy();
    await rm(join(bare, "states.json"));
    const validated = await runCli(["validate", "--source", bare]);
    expect(validated.code).toBe(0);
    expect(validated.stderr).toContain("no state file");
    expect(validated.stderr).not.toMatch(STALLED);
  });
});
