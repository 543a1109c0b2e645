// serve's start: the stations its first states file leaves without a state, counted against
// --max-missing as a refresh counts them (their states in error and the stations it has no record of).
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { missingAtStart, type StartRead } from "../../src/serve/missing-at-start.js";
import { formatProblem } from "../../src/source/problems.js";
import { readStates, readStatic } from "../../src/source/read-dataset.js";
import { FIXTURES, tempDir } from "../helpers.js";

interface StateRecord {
  contract: string;
  status: string;
}

/** The fixtures' static source, and its states file as `edit` leaves it, read as the start reads it. */
async function startRead(edit: (states: StateRecord[]) => StateRecord[]) {
  const read = await readStatic(FIXTURES);
  const file = JSON.parse(await readFile(join(FIXTURES, "states.json"), "utf8")) as {
    states: StateRecord[];
  };
  const path = join(await tempDir(), "states.json");
  await writeFile(path, JSON.stringify({ states: edit(file.states) }));
  const states = await readStates(read, path, undefined, { leaveOut: true });
  const start: StartRead = {
    path,
    stations: read.source.stations,
    maxMissingShare: 0.1,
    lastKept: false,
    simulated: false,
  };
  return { states, start, path };
}

const dublinAlone = (states: StateRecord[]) => states.filter((s) => s.contract === "dublin");

describe("missingAtStart", () => {
  it("refuses a file without the records of more stations than --max-missing allows, naming them before its states in error", async () => {
    const { states, start, path } = await startRead((all) =>
      dublinAlone(all).map((state, at) => (at < 10 ? { ...state, status: "open" } : state)),
    );
    const said = missingAtStart(states, start);
    expect(said.map(formatProblem)[0]).toBe(
      `${path}: leaves out 309 of the 413 stations the static source lists (74.8%), more than --max-missing 10% allows: fix the feed, or raise --max-missing if stations really left; ` +
        "299 stations not in it (lyon #2010, lyon #5015, lyon #123, toulouse #55, toulouse #195, toulouse #29, toulouse #280, toulouse #156, toulouse #242, toulouse #224 and 289 more); " +
        `10 states in error left out (${path}[0] (dublin #42) status: must be one of "OPEN", "CLOSED", got "open", …)`,
    );
    // Each state in error below it, as an error.
    expect(said.slice(1).map(({ severity }) => severity)).toEqual(Array(10).fill("error"));
  });

  it("refuses them with or without a tree's states kept for them: a first start has nothing to keep", async () => {
    const { states, start } = await startRead(dublinAlone);
    const first = missingAtStart(states, start);
    expect(first[0]?.message).toMatch(
      /^leaves out 299 of the 413 stations the static source lists/,
    );
    expect(missingAtStart(states, { ...start, lastKept: true })).toEqual(first);
  });

  it("counts every station listed for a file whose list is empty", async () => {
    const { states, start } = await startRead(() => []);
    expect(missingAtStart(states, start)[0]?.message).toMatch(
      /^leaves out 413 of the 413 stations the static source lists \(100%\), .*; 413 stations not in it \(dublin #42, dublin #30, /,
    );
  });

  it("lets a file within --max-missing be, its stations' warnings the rules' own", async () => {
    const { states, start } = await startRead((all) => all.slice(0, all.length - 41));
    expect(missingAtStart(states, start)).toEqual([]);
    expect(missingAtStart(states, { ...start, maxMissingShare: 0.09 })[0]?.message).toMatch(
      /^leaves out 41 of the 413 stations the static source lists \(9\.9%\), more than --max-missing 9% allows/,
    );
  });

  it("counts no station the simulator gives a state to", async () => {
    const { states, start } = await startRead(dublinAlone);
    expect(missingAtStart(states, { ...start, simulated: true })).toEqual([]);
  });
});
