// Splitting a states file into its records' texts against the last accepted file's: the same
// text at the same place is not parsed again; anything the split cannot vouch for is refused.
import { describe, expect, it } from "vitest";
import { recordTexts, splitStatesText } from "../../src/source/states-text.js";

const a = '{"contract":"lyon","number":1,"name":"a \\"}\\\\"}';
const b = '{"contract":"lyon","number":2,"stands":{"bikes":[1,2]}}';
const c = '{"contract":"lyon","number":3}';
const lines = (...records: string[]) => `{"states":[\n${records.join(",\n")}\n]}\n`;

describe("splitStatesText", () => {
  it("gives each record's text, parsing only those that are not the previous file's", () => {
    const first = splitStatesText(lines(a, b, c));
    expect(first?.texts).toEqual([a, b, c]);
    expect(first?.raw).toEqual([JSON.parse(a), JSON.parse(b), JSON.parse(c)]);
    const changed = '{"contract":"lyon","number":2,"stands":{"bikes":[3]}}';
    const next = splitStatesText(lines(a, changed, c), first?.texts);
    expect(next?.texts).toEqual([a, changed, c]);
    expect(next?.raw).toEqual([undefined, JSON.parse(changed), undefined]);
  });

  it("reads any layout JSON allows between records: one line, indented, CRLF", () => {
    for (const text of [
      `{"states":[${a},${b},${c}]}`,
      `  {\r\n  "states" : [\r\n    ${a} ,\r\n\t${b},${c}\r\n  ]\r\n}`,
      JSON.stringify({ states: [JSON.parse(a), JSON.parse(b), JSON.parse(c)] }, null, 2),
    ]) {
      const split = splitStatesText(text);
      expect(split?.raw, text).toEqual([JSON.parse(a), JSON.parse(b), JSON.parse(c)]);
      expect(splitStatesText(text, split?.texts)?.raw).toEqual([undefined, undefined, undefined]);
      expect(recordTexts(text)).toEqual(split?.texts);
    }
    expect(splitStatesText('{"states":[]}')?.texts).toEqual([]);
    expect(splitStatesText('{ "states" : [ ] }')?.texts).toEqual([]);
  });

  it("refuses what is not provably the JSON it would give, for the whole-file parser to report", () => {
    const known = splitStatesText(lines(a, b, c))?.texts;
    for (const text of [
      lines(a, b, c).replace("]}", "]"), // unclosed
      lines(a, b, c).replace(",\n", "\n"), // a missing comma between same-text records
      lines(a, b, c).replace(",\n", ",,\n"),
      `${lines(a, b, c)}x`,
      lines(a, '{"contract":"lyon","number":2,}', c), // a changed record that is not JSON
      lines(a, '{"contract":"lyon" "number":2}', c),
      lines(a, "[1,2]", c), // not an object
      lines(a, "2", c),
      `{"version":1,"states":[${a}]}`, // another key: the parser reads it
      `{"st\\u0061tes":[${a}]}`,
      `{"states":[${a}]}\u00a0`, // not JSON whitespace
      `[${a}]`,
      "",
    ]) {
      expect(splitStatesText(text, known), text).toBeUndefined();
      expect(splitStatesText(text), text).toBeUndefined();
    }
  });

  it("does not take a longer record for the previous one it starts with", () => {
    const known = splitStatesText(lines('{"n":1}'))?.texts;
    expect(splitStatesText(lines('{"n":12}'), known)?.raw).toEqual([{ n: 12 }]);
    expect(splitStatesText('{"states":[{"n":1}{"n":2}]}', known)).toBeUndefined();
  });
});

describe("splitStatesText and a key given twice", () => {
  it("refuses a changed record holding a key twice, for the whole read to say where", () => {
    const twice = '{"contract":"lyon","number":2,"number":3}';
    expect(splitStatesText(lines(a, twice, c))).toBeUndefined();
    const first = splitStatesText(lines(a, b, c));
    expect(splitStatesText(lines(a, twice, c), first?.texts)).toBeUndefined();
    // A key again in another object, or in a text, is no key given twice.
    const nested = '{"contract":"lyon","number":2,"stands":{"number":2,"name":"\\"number\\":"}}';
    expect(splitStatesText(lines(a, nested, c), first?.texts)?.raw).toEqual([
      undefined,
      JSON.parse(nested),
      undefined,
    ]);
  });
});
