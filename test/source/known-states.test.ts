// Reading a states file against what the last accepted one left: equal records are taken as they
// were, and a bad record among them is still reported with its file, record and field.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { IndexedMap } from "../../src/indexed-map.js";
import { sameJson } from "../../src/source/known-states.js";
import { formatProblem } from "../../src/source/problems.js";
import { readStates, readStatic, type StaticRead } from "../../src/source/read-dataset.js";
import { lyonSource, lyonState as state } from "./lyon-source.js";

async function source(): Promise<{ dir: string; read: StaticRead }> {
  const dir = await lyonSource(3);
  return { dir, read: await readStatic(dir) };
}

async function statesFile(dir: string, name: string, states: unknown[]): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, JSON.stringify({ states }));
  return path;
}

describe("readStates with the last accepted file", () => {
  it("takes a record equal to last time's as it was, and reads a changed one anew", async () => {
    const { dir, read } = await source();
    const first = await readStates(
      read,
      await statesFile(dir, "a.json", [state(1), state(2), state(3)]),
    );
    // Key order does not make a record different.
    const { mainStands, ...rest } = state(1);
    const path = await statesFile(dir, "b.json", [{ mainStands, ...rest }, state(2, 5), state(3)]);
    const second = await readStates(read, path, first.known);
    expect(second.problems).toEqual([]);
    expect(second.states?.get("lyon/1")).toBe(first.states?.get("lyon/1"));
    expect(second.states?.get("lyon/2")).not.toBe(first.states?.get("lyon/2"));
    expect(second.states?.get("lyon/2")?.main.bikes).toBe(5);
    expect(second.known?.records[0]?.at).toMatchObject({ file: path, index: 0 });
  });

  it("reports a bad record with its file, record and field when the rest of the file is unchanged", async () => {
    const { dir, read } = await source();
    const good = [state(1), state(2), state(3)];
    const first = await readStates(read, await statesFile(dir, "a.json", good));
    expect(first.problems.map(formatProblem)).toEqual([]);
    expect(first.known).toBeDefined();
    const tooMany = state(2, 9); // 9 bikes + 3 stands on 10 stands
    const typo = { ...state(3), status: "open" };
    const path = await statesFile(dir, "b.json", [state(1), tooMany, typo, state(1)]);
    const second = await readStates(read, path, first.known);
    expect(second.states).toBeUndefined();
    expect(second.known).toBeUndefined();
    const lines = second.problems.map(formatProblem);
    expect(lines).toContain(
      `${path}[1] (lyon #2) mainStands: bikes + stands is 12, more than the station's capacity of 10`,
    );
    expect(lines).toContainEqual(expect.stringMatching(/\[2\] \(lyon #3\) status: /));
    // A record equal to a known one is still checked against the others: a second state for lyon #1.
    expect(lines).toContain(
      `${path}[3] (lyon #1) number: a second state for this station (first at [0])`,
    );
  });

  it("checks everything again against other static data", async () => {
    const { dir, read } = await source();
    const first = await readStates(read, await statesFile(dir, "a.json", [state(1)]));
    const smaller = {
      ...read,
      source: { ...read.source, stations: read.source.stations.slice(1) },
    };
    const again = await readStates(smaller, join(dir, "a.json"), first.known);
    expect(again.problems.map(formatProblem)).toContain(
      `${join(dir, "a.json")}[0] (lyon #1) number: no station 1 in contract "lyon"`,
    );
  });
});

/** As a feed usually writes it: one record per line. */
async function linesFile(dir: string, name: string, states: unknown[]): Promise<string> {
  const path = join(dir, name);
  await writeFile(
    path,
    `{"states":[\n${states.map((one) => JSON.stringify(one)).join(",\n")}\n]}\n`,
  );
  return path;
}

describe("readStates with the last accepted file's texts", () => {
  it("takes a record whose text is the same as it was, and reads a changed one anew", async () => {
    const { dir, read } = await source();
    const first = await readStates(read, await linesFile(dir, "a.json", [state(1), state(2)]));
    expect(first.known?.texts ?? first.known?.text).toBeDefined();
    const second = await readStates(
      read,
      await linesFile(dir, "a.json", [state(1), state(2, 5)]),
      first.known,
    );
    expect(second.problems.map(formatProblem)).toEqual([
      expect.stringMatching(/\(lyon #3\): no state: published as CLOSED/),
    ]);
    expect(second.states?.get("lyon/1")).toBe(first.states?.get("lyon/1"));
    expect(second.states?.get("lyon/2")?.main.bikes).toBe(5);
    expect(second.known?.texts).toEqual([JSON.stringify(state(1)), JSON.stringify(state(2, 5))]);
  });

  it("reports a broken record among unchanged ones with its file and line", async () => {
    const { dir, read } = await source();
    const first = await readStates(read, await linesFile(dir, "a.json", [state(1), state(2)]));
    const path = await linesFile(dir, "b.json", [state(1), state(2, 5)]);
    await writeFile(path, (await readFile(path, "utf8")).replace('"number":2,', '"number":2,,'));
    const second = await readStates(read, path, first.known);
    expect(second.states).toBeUndefined();
    expect(second.problems.map(formatProblem)).toEqual([
      expect.stringMatching(new RegExp(`^${path}:3: is not valid JSON`)),
    ]);
  });

  it("runs the rules across records again when a station's state moved", async () => {
    const { dir, read } = await source();
    const first = await readStates(
      read,
      await linesFile(dir, "a.json", [state(1), state(2), state(3)]),
    );
    // The record of lyon #3 now states lyon #2 again: a second state, and none for lyon #3.
    const path = await linesFile(dir, "b.json", [state(1), state(2), state(2, 5)]);
    const second = await readStates(read, path, first.known);
    expect(second.states).toBeUndefined();
    const lines = second.problems.map(formatProblem);
    expect(lines).toContain(
      `${path}[2] (lyon #2) number: a second state for this station (first at [1])`,
    );
    expect(lines).toContainEqual(expect.stringMatching(/\(lyon #3\): no state: published/));
  });

  it("finds no station missing from a file with the same stations at the same places", async () => {
    const { dir, read } = await source();
    const first = await readStates(read, await linesFile(dir, "a.json", [state(2), state(1)]));
    const second = await readStates(
      read,
      await linesFile(dir, "a.json", [state(2, 4), state(1)]),
      first.known,
    );
    const states = second.states as IndexedMap<string, unknown>;
    expect(states.sameKeys(first.states as ReadonlyMap<string, unknown>)).toBe(true);
    expect([...states.keys()]).toEqual(["lyon/2", "lyon/1"]);
    const third = await readStates(
      read,
      await linesFile(dir, "a.json", [state(1), state(2)]),
      second.known,
    );
    expect((third.states as IndexedMap<string, unknown>).sameKeys(states)).toBe(false);
    expect(third.states?.get("lyon/2")?.main.bikes).toBe(2);
  });
});

describe("sameJson", () => {
  it("compares JSON values deeply, object keys in any order", () => {
    expect(sameJson({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(true);
    expect(sameJson({ a: 1, b: { c: [1, 2] } }, { a: 1, b: { c: [2, 1] } })).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(sameJson({ a: 1, b: null }, { a: 1 })).toBe(false);
    expect(sameJson({ a: null }, { a: {} })).toBe(false);
    expect(sameJson([1], { 0: 1 })).toBe(false);
    expect(sameJson("1", 1)).toBe(false);
  });
});
