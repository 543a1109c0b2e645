// Copies made by withFields: the fields a spread would give, and one hidden class for all of them
// (checked in a child Node with V8's natives syntax: the reason withFields exists).
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { withFields } from "../src/with-fields.js";
import { ROOT } from "./helpers.js";

describe("withFields", () => {
  it("gives what a spread gives, leaving the record as it was", () => {
    const record = { file: "states.json", index: 3, line: undefined as number | undefined };
    const copy = withFields(record, { index: 4, line: 9 });
    expect(copy).toStrictEqual({ ...record, index: 4, line: 9 });
    expect(Object.keys(copy)).toEqual(["file", "index", "line"]);
    expect(record).toStrictEqual({ file: "states.json", index: 3, line: undefined });
  });

  it("gives every copy of records of one shape the same hidden class", () => {
    const module = join(ROOT, "dist/with-fields.js");
    const script = `
      const { withFields } = await import(${JSON.stringify(module)});
      const copies = [];
      for (let i = 0; i < 200; i++)
        copies.push(withFields({ file: "x", index: i, line: i + 1 }, { label: "#" + i }));
      process.stdout.write(String(copies.filter((copy) => %HaveSameMap(copy, copies[0])).length));`;
    const same = execFileSync(
      process.execPath,
      ["--allow-natives-syntax", "--input-type=module", "-e", script],
      { encoding: "utf8" },
    );
    expect(Number(same)).toBe(200);
  });
});
