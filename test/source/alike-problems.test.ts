import { describe, expect, it } from "vitest";
import { formatRest, type Listed, listAlike, problemsIn } from "../../src/source/alike-problems.js";
import { error, type Problem, warning } from "../../src/source/problems.js";

const STATES = "src/states.json";
const STATIONS = "src/stations.csv";

/** The Z missing from the lastUpdate of the state at `index`, a minute after the one before. */
const noZone = (index: number): Problem => {
  const time = new Date(Date.UTC(2025, 1, 8, 16, index)).toISOString().slice(0, 19);
  return error(
    { file: STATES, index, label: `dublin #${index + 1}` },
    "lastUpdate",
    `"${time}" lacks a time zone (Z for UTC, or an offset such as +01:00): write it as ${time}Z if it is UTC`,
  );
};
const ajar = (index: number): Problem =>
  error({ file: STATES, index }, "status", `must be "OPEN" or "CLOSED", got "AJAR${index}"`);
const unknownContract = (line: number, contract = "toulouse"): Problem =>
  error(
    { file: STATIONS, line, label: `${contract} #${line}` },
    "contract",
    `unknown contract "${contract}" (not in contracts.json)`,
  );

/** Each line as the problem it lists, or `rest of N: from…to` for a count. */
const shape = (listed: Listed[]): string[] =>
  listed.map((line) =>
    "problem" in line
      ? `${line.problem.field}@${line.problem.at.index ?? line.problem.at.line}`
      : `${line.rest[0]?.field} rest ${line.rest.length} of ${line.inAll}`,
  );

const range = (count: number) => Array.from({ length: count }, (_, index) => index);

describe("listAlike", () => {
  it("says a mistake repeated over a file by its first 3 and one line for the rest", () => {
    const problems = range(413).map(noZone);
    const listed = listAlike(problems, 3);
    expect(shape(listed)).toEqual([
      "lastUpdate@0",
      "lastUpdate@1",
      "lastUpdate@2",
      "lastUpdate rest 410 of 413",
    ]);
    expect(problemsIn(listed)).toBe(413);
  });

  it("lists each problem when `shown` is Infinity", () => {
    const listed = listAlike(range(413).map(noZone), Infinity);
    expect(listed).toHaveLength(413);
    expect(listed.every((line) => "problem" in line)).toBe(true);
  });

  it("counts a kind only when 3 or more are past the first ones: 5 are listed, 6 counted", () => {
    expect(shape(listAlike(range(5).map(noZone), 3))).toEqual(
      range(5).map((index) => `lastUpdate@${index}`),
    );
    expect(shape(listAlike(range(6).map(noZone), 3))).toEqual([
      "lastUpdate@0",
      "lastUpdate@1",
      "lastUpdate@2",
      "lastUpdate rest 3 of 6",
    ]);
  });

  it("keeps kinds interleaved as they came, each count where its 4th would have been", () => {
    const other = (index: number) =>
      error({ file: STATES, index }, "connected", "must be true or false");
    const problems = range(8).flatMap((index) => [
      noZone(index),
      ajar(index),
      ...(index === 2 || index === 7 ? [other(index)] : []),
    ]);
    expect(shape(listAlike(problems, 3))).toEqual([
      "lastUpdate@0",
      "status@0",
      "lastUpdate@1",
      "status@1",
      "lastUpdate@2",
      "status@2",
      "connected@2",
      "lastUpdate rest 5 of 8",
      "status rest 5 of 8",
      "connected@7",
    ]);
  });

  it("sets aside quoted values, numbers and times, not the words", () => {
    const ahead = (index: number, hours: string) =>
      warning(
        { file: STATES, index },
        "lastUpdate",
        `"2026-12-07T02:1${index}:00Z" is ${hours} h ahead of this machine's clock (2026-12-06T23:17:35Z): a local time written with Z (UTC), or a clock set wrong? published as given`,
      );
    const hours = ["3", "3", "3.1", "3.1", "3.1", "3.2"];
    const listed = listAlike(
      hours.map((value, index) => ahead(index, value)),
      3,
    );
    expect(shape(listed)).toEqual([
      "lastUpdate@0",
      "lastUpdate@1",
      "lastUpdate@2",
      "lastUpdate rest 3 of 6",
    ]);
    // Other words: another kind, though of the same file and field.
    const behind = (index: number) =>
      warning({ file: STATES, index }, "lastUpdate", `"2026-12-07" is ${index} h behind`);
    const both = [...range(6).map((index) => ahead(index, "3")), ...range(6).map(behind)];
    expect(shape(listAlike(both, 3))).toEqual([
      "lastUpdate@0",
      "lastUpdate@1",
      "lastUpdate@2",
      "lastUpdate rest 3 of 6",
      "lastUpdate@0",
      "lastUpdate@1",
      "lastUpdate@2",
      "lastUpdate rest 3 of 6",
    ]);
  });

  it("takes a quoted word for a word of the kind: two contracts unknown are two mistakes, each listed", () => {
    const problems = [
      ...range(6).map((line) => unknownContract(line + 2, "dublin")),
      ...range(6).map((line) => unknownContract(line + 8, "toulouse")),
    ];
    const lines = listAlike(problems, 3).map((line) =>
      "problem" in line ? line.problem.message : formatRest(line.rest, line.inAll),
    );
    expect(lines.filter((line) => line.includes('"toulouse"'))).toHaveLength(4);
    expect(lines.at(-1)).toBe(
      `${STATIONS}:11–13 contract: the same in 3 more records (6 in all): unknown contract "toulouse" (not in contracts.json)`,
    );
  });

  it.each([
    ["severity", (problem: Problem): Problem => ({ ...problem, severity: "warning" })],
    [
      "file",
      (problem: Problem): Problem => ({ ...problem, at: { ...problem.at, file: "b.json" } }),
    ],
    ["field", (problem: Problem): Problem => ({ ...problem, field: "lastUpdated" })],
  ])("does not count together problems of another %s", (_, other) => {
    // 3 and 3 of two kinds: each listed. Of one kind, the last 3 would be counted.
    const problems = range(6).map((index) => (index < 3 ? noZone(index) : other(noZone(index))));
    expect(listAlike(problems, 3)).toHaveLength(6);
  });

  it("never counts problems of a whole file, which have no record to range over", () => {
    const whole = range(8).map(() => warning({ file: STATES }, undefined, "has 1 state"));
    expect(listAlike(whole, 3)).toHaveLength(8);
  });
});

describe("formatRest", () => {
  it("ranges a JSON file's records by index, and gives as … the values that differ", () => {
    const problems = range(413).map(noZone);
    expect(formatRest(problems.slice(3), 413)).toBe(
      `${STATES}[3]…[412] lastUpdate: the same in 410 more records (413 in all): "…" lacks a time zone (Z for UTC, or an offset such as +01:00): write it as … if it is UTC`,
    );
  });

  it("ranges a CSV file's records by line, and keeps the values they all share", () => {
    const problems = [122, 405, 130].map((line) => unknownContract(line));
    expect(formatRest(problems, 6)).toBe(
      `${STATIONS}:122–405 contract: the same in 3 more records (6 in all): unknown contract "toulouse" (not in contracts.json)`,
    );
    const others = [unknownContract(122), unknownContract(123, "tolouse"), unknownContract(124)];
    expect(formatRest(others, 6)).toContain(': unknown contract "…" (not in contracts.json)');
  });

  it("keeps a control character of a shared value escaped, as formatProblem does", () => {
    const hostile = "\u001b[2J\u001b]0;pwned\u0007";
    const problems = [1, 2, 3].map((line) => unknownContract(line, hostile));
    const line = formatRest(problems, 6);
    expect([...line].filter((character) => character.charCodeAt(0) < 0x20)).toEqual([]);
    expect(line).toContain('unknown contract "\\x1b[2J\\x1b]0;pwned\\x07"');
  });
});
