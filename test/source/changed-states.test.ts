// The server's states read against the file it accepted last: only changed records parsed and
// checked; anything doubtful (a problem, a record moved or gone) left to the whole read, which
// reports it as it always did.
import { rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { stateFile } from "../../src/serve/state-source.js";
import {
  type AcceptedStates,
  acceptedOf,
  readChangedStates,
} from "../../src/source/changed-states.js";
import { assembleDataset, type Dataset } from "../../src/source/dataset.js";
import type { KnownStates } from "../../src/source/known-states.js";
import { formatProblem } from "../../src/source/problems.js";
import { readStates, readStatic, type StaticRead } from "../../src/source/read-dataset.js";
import { collectGarbage } from "../helpers.js";
import { lyonSource, lyonState as state } from "./lyon-source.js";

// The whole read, counted: a server's refresh of a file with only changed records needs none.
vi.mock("../../src/source/read-dataset.js", async (original) => {
  const actual = await original<typeof import("../../src/source/read-dataset.js")>();
  return { ...actual, readStates: vi.fn(actual.readStates) };
});

/** As a feed usually writes it: one record per line. */
const linesOf = (states: unknown[]): string =>
  `{"states":[\n${states.map((one) => JSON.stringify(one)).join(",\n")}\n]}\n`;

interface Setup {
  path: string;
  read: StaticRead;
  accepted: AcceptedStates;
  dataset: Dataset;
  /** What the read of the accepted file left, as `velodata serve` hands it to its state source. */
  known: KnownStates;
  write(states: unknown[]): Promise<void>;
}

/** A source of 4 stations and an accepted states file (lyon #4 left out: a warning). */
async function setup(): Promise<Setup> {
  const dir = await lyonSource(4);
  const read = await readStatic(dir);
  const path = join(dir, "states.json");
  const write = (states: unknown[]) => writeFile(path, linesOf(states));
  await write([state(1), state(2), state(3)]);
  const first = await readStates(read, path);
  const known = first.known;
  const accepted = known && acceptedOf(known);
  if (!known || !accepted || !first.states) throw new Error("the first file was not accepted");
  const dataset = assembleDataset(read.source, first.states);
  return { path, read, accepted, dataset, known, write };
}

describe("readChangedStates", () => {
  it("parses only the changed records and gives what a whole read gives", async () => {
    const { path, read, accepted, write } = await setup();
    await write([state(1), state(2, 5), state(3)]);
    const changed = await readChangedStates(path, accepted, read);
    const whole = await readStates(read, path);
    expect(changed?.states.get("lyon/2")?.main.bikes).toBe(5);
    expect(changed?.states.get("lyon/1")).toBe(accepted.states.get("lyon/1"));
    expect(changed?.states.sameKeys(accepted.states)).toBe(true);
    expect([...(changed?.states ?? [])]).toEqual([...(whole.states ?? [])]);
    // The warnings a whole read says: lyon #4 has no state.
    expect(changed?.problems.map(formatProblem)).toEqual(whole.problems.map(formatProblem));
    expect(changed?.problems).toHaveLength(1);
    // A bigger file than any read before (the same records, spaced out): read to its end.
    await writeFile(
      path,
      linesOf([state(1), state(2, 6), state(3)]).replace("[", `[${" ".repeat(1 << 20)}`),
    );
    const bigger = await readChangedStates(path, changed?.accepted as AcceptedStates, read);
    expect(bigger?.states.get("lyon/2")?.main.bikes).toBe(6);
    await write([state(1), state(2, 6), state(3)]);
    // Read again against this file: nothing changed, the same states.
    const again = await readChangedStates(path, bigger?.accepted as AcceptedStates, read);
    expect(again?.states.get("lyon/2")).toBe(bigger?.states.get("lyon/2"));
  });

  it("reads file after file against the last, its buffers taking turns", async () => {
    const it = await setup();
    const { path, read, write } = it;
    let accepted = it.accepted;
    const minutes = [
      [state(1, 1), state(2), state(3)],
      [state(1, 1), state(2, 2), state(3)],
      [state(1, 3), state(2, 2), state(3)],
      [state(1, 3), state(2, 2), state(3, 4)],
      [state(1, 3), state(2, 2), state(3, 4)],
      [state(1), state(2), state(3)],
    ];
    for (const states of minutes) {
      await write(states);
      const changed = await readChangedStates(path, accepted, read);
      // The minute's states, whatever the buffers held before.
      expect([...(changed?.states ?? [])]).toEqual([
        ...((await readStates(read, path)).states ?? []),
      ]);
      accepted = changed?.accepted as AcceptedStates;
    }
  });

  it("takes over the buffers of the file it replaces when a whole read is accepted, and reads on", async () => {
    const { path, read, accepted, known, write } = await setup();
    await write([state(3), state(1), state(2, 5)]); // moved: read whole
    const whole = await readStates(read, path, known);
    const next = whole.known && acceptedOf(whole.known, accepted);
    expect(next?.holding).toBe(accepted.spare);
    expect(next?.spare).toBe(accepted.holding);
    await write([state(3, 4), state(1), state(2, 5)]);
    const changed = await readChangedStates(path, next as AcceptedStates, read);
    expect([...(changed?.states ?? [])]).toEqual([
      ...((await readStates(read, path)).states ?? []),
    ]);
    expect(changed?.states.get("lyon/3")?.main.bikes).toBe(4);
  });

  it("leaves to the whole read a changed record with a problem, a record moved, added or gone", async () => {
    const { path, read, accepted, write } = await setup();
    const cases: unknown[][] = [
      [state(1), state(2, 9), state(3)], // 9 bikes + 3 stands on 10 stands
      [state(1), { ...state(2), status: "open" }, state(3)],
      [state(1), state(3), state(2)], // the same records, moved
      [state(1), state(2, 5), state(3), state(4)], // one more
      [state(1), state(3)], // one gone
      [state(1), state(4), state(3)], // another station at a record's place
    ];
    for (const states of cases) {
      await write(states);
      expect(await readChangedStates(path, accepted, read)).toBeNull();
    }
    await writeFile(path, linesOf([state(1), state(2), state(3)]).replace("[", "[ "));
    expect(await readChangedStates(path, accepted, read)).not.toBeNull();
    await writeFile(
      path,
      linesOf([state(1), state(2), state(3)]).replace('"number":2,', '"number":2,,'),
    );
    expect(await readChangedStates(path, accepted, read)).toBeNull();
    await writeFile(path, "");
    expect(await readChangedStates(path, accepted, read)).toBeNull();
    // Not UTF-8 (a Latin-1 export): the whole read says which byte.
    const latin1 = Buffer.from(
      linesOf([state(1), { ...state(2), lastUpdate: "é" }, state(3)]),
      "latin1",
    );
    await writeFile(path, latin1);
    expect(await readChangedStates(path, accepted, read)).toBeNull();
  });
});

describe("a server's states file", () => {
  /** The server's state source, started from the accepted file as `velodata serve` starts it. */
  // Each line logged, a warning's marked as such.
  const serverStates = ({ path, read, known }: Setup, log: string[] = []) =>
    stateFile(path, read, {
      maxMissingShare: 0.5,
      log: (line, severity) => log.push(severity === "warning" ? `warning: ${line}` : line),
      known,
    });

  it("reads only the changed records of a file with the same stations at the same places", async () => {
    const it = await setup();
    const states = serverStates(it);
    await it.write([state(1), state(2, 5), state(3)]);
    vi.mocked(readStates).mockClear();
    const read = await states.read(it.dataset, new Date());
    expect(readStates).not.toHaveBeenCalled();
    expect(read.states?.get("lyon/2")?.main.bikes).toBe(5);
    expect([...(read.states ?? [])]).toEqual([
      ...((await readStates(it.read, it.path)).states ?? []),
    ]);
  });

  it("leaves out a changed record in error, saying its file, record and field, as the whole read", async () => {
    const it = await setup();
    const states = serverStates(it);
    await it.write([state(1), state(2, 9), state(3)]);
    vi.mocked(readStates).mockClear();
    const read = await states.read(it.dataset, new Date());
    expect(readStates).toHaveBeenCalledTimes(1);
    expect([...(read.states?.keys() ?? [])]).toEqual(["lyon/1", "lyon/3"]);
    expect(read.leftOut?.map(formatProblem)).toEqual([
      `${it.path}[1] (lyon #2) mainStands: bikes + stands is 12, more than the station's capacity of 10`,
    ]);
    const whole = await readStates(it.read, it.path, undefined, { leaveOut: true });
    expect(read.leftOut).toEqual(whole.leftOut);
    // Read as a build reads it, the record is an error.
    expect((await readStates(it.read, it.path)).states).toBeUndefined();
    // Then a good file: read against the last accepted one, as if the bad one had not come.
    await it.write([state(1), state(2, 4), state(3)]);
    const next = await states.read(it.dataset, new Date());
    expect(next.states?.get("lyon/2")?.main.bikes).toBe(4);
    expect(next.states?.get("lyon/1")).toBe(it.dataset.states.get("lyon/1"));
  });

  it("leaves out a later minute's record holding a key twice, saying where, as the whole read", async () => {
    const it = await setup();
    const states = serverStates(it);
    const text = linesOf([state(1), state(2), state(3)]).replace(
      '"number":2,"status":"OPEN"',
      '"number":2,"status":"OPEN","status":"CLOSED"',
    );
    await writeFile(it.path, text);
    expect(await readChangedStates(it.path, it.accepted, it.read)).toBeNull();
    const read = await states.read(it.dataset, new Date());
    expect(read.states?.has("lyon/2")).toBe(false);
    expect(read.leftOut?.map(formatProblem)).toEqual([
      `${it.path}[1] (lyon #2) status: is given twice in the record (JSON would silently keep the last one): keep one; an export mapping two columns to one field?`,
    ]);
    // Then a good file: read as if the bad one had not come.
    await it.write([state(1), state(2, 4), state(3)]);
    const next = await states.read(it.dataset, new Date());
    expect(next.states?.get("lyon/2")?.main.bikes).toBe(4);
  });

  it("says a system error of the file (a link that loops) as the system's, with what to do", async () => {
    const it = await setup();
    const states = serverStates(it);
    await rm(it.path);
    await symlink(it.path, it.path);
    // Not thrown (the refresher would call it a failure of its own), nor in Node's words.
    const read = await states.read(it.dataset, new Date());
    expect(read.states).toBeUndefined();
    expect(read.problems.map(formatProblem)).toEqual([
      `${it.path}: is a symbolic link that leads back to itself: fix the link`,
    ]);
  });

  it("keeps the records a whole read left only while the feed is read whole", async () => {
    const it = await setup();
    const states = serverStates(it);
    const knownOfWholeReads = () => vi.mocked(readStates).mock.calls.map((call) => call[2]);
    // The first read's were let go at start: its bytes can vouch for the next file.
    await it.write([state(3), state(1), state(2)]);
    vi.mocked(readStates).mockClear();
    await states.read(it.dataset, new Date());
    expect(knownOfWholeReads()).toEqual([undefined]);
    // Records moved again: this whole read gets those of the one before.
    await it.write([state(2), state(3), state(1, 5)]);
    vi.mocked(readStates).mockClear();
    await states.read(it.dataset, new Date());
    expect(knownOfWholeReads()).toEqual([expect.objectContaining({ source: it.read.source })]);
    // The same layout: read as bytes. The next whole read, from nothing, gives what it always gave.
    await it.write([state(2, 4), state(3), state(1, 5)]);
    vi.mocked(readStates).mockClear();
    await states.read(it.dataset, new Date());
    expect(readStates).not.toHaveBeenCalled();
    await it.write([state(1, 6), state(2, 4), state(3)]);
    vi.mocked(readStates).mockClear();
    const read = await states.read(it.dataset, new Date());
    expect(knownOfWholeReads()).toEqual([undefined]);
    expect([...(read.states ?? [])]).toEqual([
      ...((await readStates(it.read, it.path)).states ?? []),
    ]);
  });

  it("holds nothing of the first read's records once its bytes can vouch for the next file", async () => {
    const it: Partial<Setup> & Setup = await setup();
    const first = new WeakRef(it.known);
    const states = serverStates(it);
    it.known = undefined as unknown as KnownStates;
    vi.mocked(readStates).mockClear(); // its record of the calls holds what they returned
    await collectGarbage();
    expect(first.deref()).toBeUndefined();
    await it.write([state(1), state(2, 5), state(3)]);
    expect((await states.read(it.dataset, new Date())).states?.get("lyon/2")?.main.bikes).toBe(5);
  });

  it("reads a file with records moved or gone whole, and says which stations are missing", async () => {
    const it = await setup();
    const log: string[] = [];
    const states = serverStates(it, log);
    await it.write([state(3), state(1, 5)]);
    const read = await states.read(it.dataset, new Date());
    const whole = await readStates(it.read, it.path);
    expect([...(read.states ?? [])]).toEqual([...(whole.states ?? [])]);
    expect(log).toEqual([
      expect.stringMatching(/^warning: .*: 1 station reported before is missing/),
    ]);
    expect(log[0]).toContain("lyon #2");
    // Then the next minute of this layout: read against the file the whole read accepted.
    await it.write([state(3), state(1, 6)]);
    vi.mocked(readStates).mockClear();
    const next = await states.read(it.dataset, new Date());
    expect(readStates).not.toHaveBeenCalled();
    expect(next.states?.get("lyon/1")?.main.bikes).toBe(6);
  });
});
