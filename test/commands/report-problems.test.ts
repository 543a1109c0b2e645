import { describe, expect, it } from "vitest";
import {
  EVERY_KIND,
  EVERY_PROBLEM,
  memoryOutput,
  type ProblemsShown,
  reportProblems,
  SOME_PROBLEMS,
} from "../../src/commands/output.js";
import { UserError } from "../../src/errors.js";
import { error, type Problem, warning } from "../../src/source/problems.js";

const range = (count: number) => Array.from({ length: count }, (_, index) => index);

/** A states file whose every lastUpdate lacks its Z: one kind of error. */
const noZone = (index: number): Problem =>
  error({ file: "src/states.json", index }, "lastUpdate", `"2025-02-08T16:${index}" lacks a zone`);
/** Errors each of a kind of its own (a field of its own). */
const unknownField = (line: number): Problem =>
  error({ file: "src/stations.csv", line }, `extra${line}`, "unknown field");
const ahead = (index: number): Problem =>
  warning({ file: "src/states.json", index }, "lastUpdate", `is ${index} h ahead`);

/** The lines printed, and those of the UserError thrown (none when none is). */
function reported(problems: Problem[], consequence: string | null, shown: ProblemsShown) {
  const output = memoryOutput();
  try {
    reportProblems(problems, output, consequence, shown);
    return { printed: output.lines, thrown: undefined };
  } catch (cause) {
    if (!(cause instanceof UserError)) throw cause;
    return { printed: output.lines, thrown: [cause.message, ...cause.details] };
  }
}

const VALIDATE_ALL =
  "(the first 3 problems of a kind are shown, the rest counted: `velodata validate --all` lists every one)";
const BUILD_ALL = "`velodata validate --all`, given the same --source and --state, lists every one";

describe("reportProblems, with problems alike", () => {
  it("validate: the first 3 of a kind, a count of the rest, and how to see them all", () => {
    const { thrown } = reported(range(413).map(noZone), null, EVERY_KIND);
    expect(thrown).toEqual([
      "the source data has 413 errors",
      'error: src/states.json[0] lastUpdate: "2025-02-08T16:0" lacks a zone',
      'error: src/states.json[1] lastUpdate: "2025-02-08T16:1" lacks a zone',
      'error: src/states.json[2] lastUpdate: "2025-02-08T16:2" lacks a zone',
      'error: src/states.json[3]…[412] lastUpdate: the same in 410 more records (413 in all): "…" lacks a zone',
      VALIDATE_ALL,
    ]);
  });

  it("validate --all: every problem on a line of its own", () => {
    const { thrown } = reported(range(413).map(noZone), null, EVERY_PROBLEM);
    expect(thrown).toHaveLength(414);
    expect(thrown?.at(-1)).toBe(
      'error: src/states.json[412] lastUpdate: "2025-02-08T16:412" lacks a zone',
    );
  });

  it("validate: warnings and errors counted alike, how to see them said once, last", () => {
    const { printed, thrown } = reported(
      [...range(10).map(ahead), ...range(10).map(noZone)],
      null,
      EVERY_KIND,
    );
    expect(printed).toEqual([
      "warning: src/states.json[0] lastUpdate: is 0 h ahead",
      "warning: src/states.json[1] lastUpdate: is 1 h ahead",
      "warning: src/states.json[2] lastUpdate: is 2 h ahead",
      "warning: src/states.json[3]…[9] lastUpdate: the same in 7 more records (10 in all): is … h ahead",
    ]);
    expect(thrown?.at(-1)).toBe(VALIDATE_ALL);
    expect(thrown?.filter((line) => line === VALIDATE_ALL)).toHaveLength(1);
  });

  it("build: warnings alike counted, then how to see them all", () => {
    const { printed, thrown } = reported(
      range(30).map(ahead),
      "nothing was published",
      SOME_PROBLEMS,
    );
    expect(thrown).toBeUndefined();
    expect(printed).toHaveLength(5);
    expect(printed[3]).toMatch(
      /^warning: src\/states\.json\[3\]…\[29\] lastUpdate: the same in 27 more records \(30 in all\)/,
    );
    expect(printed[4]).toBe(
      `(the first 3 problems of a kind are shown, the rest counted: ${BUILD_ALL})`,
    );
  });

  it("build: a count of a kind is one of the 50 lines, and the errors past them are counted true", () => {
    // 45 kinds of one, a kind of 100 (3 lines and its count), then 10 kinds of one in a later file.
    const later = (index: number) => error({ file: "src/zz.json", index }, `f${index}`, "unknown");
    const problems = [
      ...range(100).map(noZone),
      ...range(45).map((line) => unknownField(line + 2)),
      ...range(10).map(later),
    ];
    const { thrown } = reported(problems, "nothing was published", SOME_PROBLEMS);
    const [message, ...lines] = thrown ?? [];
    expect(message).toBe("the source data has 155 errors; nothing was published");
    expect(lines).toHaveLength(51);
    expect(lines[45]).toBe('error: src/states.json[0] lastUpdate: "2025-02-08T16:0" lacks a zone');
    expect(lines[48]).toMatch(
      /^error: src\/states\.json\[3\]…\[99\] lastUpdate: the same in 97 more records \(100 in all\)/,
    );
    expect(lines[49]).toBe("error: src/zz.json[0] f0: unknown");
    // 45 + 100 + 1 said: 9 left, and the hint is on that line (no second one).
    expect(lines[50]).toBe(`error: … and 9 more errors (${BUILD_ALL})`);
  });

  it("build: a kind whose count falls past the 50 lines is in the count of the rest", () => {
    const problems = [
      ...range(48).map((line) => unknownField(line + 2)),
      ...range(100).map(noZone),
    ];
    const { thrown } = reported(problems, "nothing was published", SOME_PROBLEMS);
    expect(thrown?.slice(-2)).toEqual([
      'error: src/states.json[1] lastUpdate: "2025-02-08T16:1" lacks a zone',
      `error: … and 98 more errors (${BUILD_ALL})`,
    ]);
  });

  it("build stopped: its warnings counted, the line saying so also says how to see them", () => {
    const { printed, thrown } = reported(
      [...range(30).map(ahead), ...range(10).map(noZone)],
      "nothing was published",
      SOME_PROBLEMS,
    );
    expect(printed).toEqual([]);
    expect(thrown?.slice(-2)).toEqual([
      'error: src/states.json[3]…[9] lastUpdate: the same in 7 more records (10 in all): "…" lacks a zone',
      `and 30 warnings (${BUILD_ALL})`,
    ]);
  });

  it("says nothing of counting when no kind was counted", () => {
    const { printed } = reported(range(5).map(ahead), null, EVERY_KIND);
    expect(printed).toHaveLength(5);
    expect(printed.join("\n")).not.toContain("--all");
  });
});
