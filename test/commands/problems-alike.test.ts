// One mistake made over a whole file reads as one: its first problems, then one line counting the
// rest of that kind, through the real CLI; `validate --all` still lists every one.
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { besidesFixtureWarning, fixtureCopy, runCli } from "../helpers.js";

/** The lines of stderr that are problems: `  error: …` and `  warning: …`. */
const problemsOf = (stderr: string, kind: "error" | "warning"): string[] =>
  stderr
    .split("\n")
    .filter((line) => line.trimStart().startsWith(`${kind}: `))
    .map((line) => line.trimStart());

const COUNTED =
  "(the first 3 problems of a kind are shown, the rest counted: `velodata validate --all` lists every one)";

/** A copy of the fixtures whose every state's lastUpdate is changed by `change`. */
async function statesWith(change: (lastUpdate: string, index: number) => string) {
  const source = await fixtureCopy();
  const path = join(source, "states.json");
  const states = JSON.parse(await readFile(path, "utf8"));
  states.states.forEach((state: { lastUpdate: string }, index: number) => {
    state.lastUpdate = change(state.lastUpdate, index);
  });
  await writeFile(path, JSON.stringify(states, null, 2));
  return { source, path };
}

describe("a mistake over a whole file", () => {
  it("every lastUpdate without its Z: 3 errors and a count of the rest, a kind per time zone; --all lists each", async () => {
    const { source, path } = await statesWith((lastUpdate) => lastUpdate.replace(/Z$/, ""));

    const validated = await runCli(["validate", "--source", source]);
    expect(validated.code).toBe(1);
    expect(validated.stderr).toContain("velodata: the source data has 413 errors\n");
    const errors = problemsOf(validated.stderr, "error");
    // Each contract's local time is said with the offset it has in its zone: Dublin's winter
    // +00:00, Lyon's spring +02:00 (a feed dropping the offset writes the city's time, which "Z"
    // alone would publish an hour or two off); the two zones' records are two kinds.
    expect(errors).toHaveLength(8);
    expect(errors[0]).toBe(
      `error: ${path}[0] (dublin #42) lastUpdate: "2025-02-08T16:44:06" lacks a time zone: write it as 2025-02-08T16:44:06+00:00 if it is Europe/Dublin time (its contract's timezone), or 2025-02-08T16:44:06Z if it is UTC`,
    );
    expect(errors[3]).toBe(
      `error: ${path}[3]…[113] lastUpdate: the same in 111 more records (114 in all): "…" lacks a time zone: write it as … if it is Europe/Dublin time (its contract's timezone), or … if it is UTC`,
    );
    expect(errors[4]).toBe(
      `error: ${path}[114] (lyon #2010) lastUpdate: "2022-04-25T12:57:59" lacks a time zone: write it as 2022-04-25T12:57:59+02:00 if it is Europe/Paris time (its contract's timezone), or 2022-04-25T12:57:59Z if it is UTC`,
    );
    expect(errors[7]).toBe(
      `error: ${path}[117]…[412] lastUpdate: the same in 296 more records (299 in all): "…" lacks a time zone: write it as … if it is Europe/Paris time (its contract's timezone), or … if it is UTC`,
    );
    expect(validated.stderr.trimEnd().split("\n").at(-1)).toBe(`  ${COUNTED}`);

    const all = await runCli(["validate", "--all", "--source", source]);
    expect(all.code).toBe(1);
    const each = problemsOf(all.stderr, "error");
    expect(each).toHaveLength(413);
    expect(each.every((line) => /lastUpdate: "[^"…]+" lacks a time zone/.test(line))).toBe(true);
    expect(new Set(each.map((line) => /\[(\d+)\]/.exec(line)?.[1])).size).toBe(413);
    expect(all.stderr).not.toContain("the same in");
    expect(all.stderr).not.toContain("--all");

    // A build says them as validate does, and points to --all; it publishes nothing.
    const out = join(source, "..", "out");
    const built = await runCli(["build", "--source", source, "--out", out]);
    expect(built.code).toBe(1);
    expect(problemsOf(built.stderr, "error")).toEqual(errors);
    expect(built.stderr).toContain(
      "\n  and 1 warning (`velodata validate --all`, given the same --source and --state, lists every one)\n",
    );
    expect(existsSync(out)).toBe(false);
  });

  it("a contract renamed in contracts.json only: its stations' lines ranged in one", async () => {
    const source = await fixtureCopy();
    const path = join(source, "contracts.json");
    const text = await readFile(path, "utf8");
    expect(text).toContain('"name": "toulouse"');
    await writeFile(path, text.replace('"name": "toulouse"', '"name": "toulouse-metropole"'));
    const validated = await runCli(["validate", "--source", source]);
    expect(validated.code).toBe(1);
    expect(validated.stderr).toContain("velodata: the source data has 287 errors\n");
    expect(problemsOf(validated.stderr, "error").at(-1)).toBe(
      `error: ${join(source, "stations.csv")}:122–405 contract: the same in 284 more records (287 in all): unknown contract "toulouse" (not in contracts.json, where "toulouse-metropole" has no station: renamed?)`,
    );
  });

  it("every lastUpdate 3 h ahead of the clock: 3 warnings and a count, still valid", async () => {
    const inThreeHours = Date.now() + 3 * 3600_000;
    const { source, path } = await statesWith((_, index) =>
      new Date(inThreeHours + index * 1000).toISOString().replace(/\.\d+Z$/, "Z"),
    );
    const validated = await runCli(["validate", "--source", source]);
    expect(validated.code).toBe(0);
    const warnings = besidesFixtureWarning(problemsOf(validated.stderr, "warning"));
    expect(warnings).toHaveLength(4);
    expect(warnings[3]).toMatch(
      new RegExp(
        `^warning: ${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\[3\\]…\\[412\\] lastUpdate: the same in 410 more records \\(413 in all\\): "…" is … h ahead of this machine's clock \\(\\S+Z\\): `,
      ),
    );
    expect(validated.stderr).toContain(`\n${COUNTED}\n`);
    expect(validated.stdout).toMatch(/ is valid: .* \(414 warnings\)\n$/);
  });
});
