// A states file with a record in error says in one run all that is wrong with it: for validate, the
// record's error and "no state" for the stations it has no record of, and only those; for a
// refresh (which leaves such a record out), the share of stations left out, that one among them.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixtureCopy, runCli } from "../helpers.js";

interface States {
  states: { contract: string; number: number; mainStands: { bikes: number } }[];
}

/** The fixtures' states with Dublin #42's bikes negative and the `leftOut` records after it gone. */
async function statesWithBadRecord(source: string, leftOut: number): Promise<string> {
  const states = JSON.parse(await readFile(join(source, "states.json"), "utf8")) as States;
  expect(states.states[0]).toMatchObject({ contract: "dublin", number: 42 });
  (states.states[0] as States["states"][0]).mainStands.bikes = -1;
  states.states.splice(1, leftOut);
  const path = join(source, "states-bad.json");
  await writeFile(path, JSON.stringify(states));
  return path;
}

const lines = (stderr: string, word: string) =>
  stderr.split("\n").filter((line) => line.includes(word));

describe("a states file with a record in error, in one run", () => {
  it("validate: the record's error, and 'no state' only for the station with no record", async () => {
    const source = await fixtureCopy();
    const state = await statesWithBadRecord(source, 1); // Dublin #30's record left out
    const result = await runCli(["validate", "--source", source, "--state", state]);
    expect(result.code).toBe(1);
    expect(lines(result.stderr, "error: ")).toEqual([
      `  error: ${state}[0] (dublin #42) mainStands.bikes: must be at least 0, got -1`,
    ]);
    expect(lines(result.stderr, "no state")).toEqual([
      `warning: ${source}/stations.csv:3 (dublin #30): no state: published as CLOSED and disconnected, with lastUpdate null`,
    ]);
  });

  it("validate: a record its schema refused has its other fields checked too", async () => {
    const source = await fixtureCopy();
    const state = await statesWithBadRecord(source, 0);
    const states = JSON.parse(await readFile(state, "utf8")) as {
      states: Record<string, unknown>[];
    };
    Object.assign(states.states[0] ?? {}, { status: "open", lastUpdate: "2025-02-08 16:44" });
    await writeFile(state, JSON.stringify(states));
    const result = await runCli(["validate", "--source", source, "--state", state]);
    expect(result.code).toBe(1);
    expect(lines(result.stderr, "error: ")).toEqual([
      `  error: ${state}[0] (dublin #42) status: must be one of "OPEN", "CLOSED", got "open"`,
      `  error: ${state}[0] (dublin #42) mainStands.bikes: must be at least 0, got -1`,
      `  error: ${state}[0] (dublin #42) lastUpdate: "2025-02-08 16:44" lacks a T between the date and the time, seconds, a time zone: write it as 2025-02-08T16:44:00+00:00 if it is Europe/Dublin time (its contract's timezone), or 2025-02-08T16:44:00Z if it is UTC`,
    ]);
  });

  it("refresh: the missing share with the record in error among them, in one run", async () => {
    const source = await fixtureCopy();
    const out = join(source, "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    // 206 of 413 missing, and #42's state in error left out (a refresh's read): 207.
    const state = await statesWithBadRecord(source, 206);
    const result = await runCli(["refresh", "--source", source, "--state", state, "--out", out]);
    expect([result.code, result.stderr]).toEqual([
      1,
      `velodata: ${state} leaves out 207 of the 413 stations reported before (50.1%), more than --max-missing 10% allows: fix the feed, or raise --max-missing if stations really left; ` +
        "206 stations not in it (dublin #30, dublin #54, dublin #108, dublin #20, dublin #56, dublin #6, dublin #18, dublin #32, dublin #52, dublin #48 and 196 more); " +
        `1 state in error left out (${state}[0] (dublin #42) mainStands.bikes: must be at least 0, got -1); the tree is left as it was\n`,
    ]);
  });

  it("refresh: stations with no record said apart from those a state in error may be of, when it does not say which", async () => {
    const source = await fixtureCopy();
    const out = join(source, "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const state = await statesWithBadRecord(source, 206);
    // Dublin #42's record in error and without its contract, Toulouse #207's number not a whole one.
    const states = JSON.parse(await readFile(state, "utf8")) as {
      states: Record<string, unknown>[];
    };
    const [first, next] = states.states;
    expect(next).toMatchObject({ contract: "toulouse", number: 207 });
    delete first?.contract;
    if (next) next.number = "207.5";
    await writeFile(state, JSON.stringify(states));
    const result = await runCli(["refresh", "--source", source, "--state", state, "--out", out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "; 208 stations not in it, or of its 2 states in error that do not say their station (dublin #42, dublin #30, ",
    );
  });

  it("refresh: a state in error whose contract is padded with spaces is of its station, not 'not in it'", async () => {
    const source = await fixtureCopy();
    const out = join(source, "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const state = await statesWithBadRecord(source, 206);
    const states = JSON.parse(await readFile(state, "utf8")) as States;
    (states.states[0] as States["states"][0]).contract = " dublin ";
    await writeFile(state, JSON.stringify(states));
    const result = await runCli(["refresh", "--source", source, "--state", state, "--out", out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("; 206 stations not in it (dublin #30, dublin #54, ");
  });
});
