// Splitting a states file's bytes against the last accepted file's bytes and record sizes: the
// same bytes at the same place are not parsed again; anything the split cannot vouch for is refused.
import { describe, expect, it } from "vitest";
import {
  type AcceptedBytes,
  recordSizes,
  splitStatesBytes,
} from "../../src/source/states-bytes.js";

const a = '{"contract":"lyon","number":1,"name":"a \\"}\\\\"}';
const b = '{"contract":"lyon","number":2,"stands":{"bikes":[1,2]}}';
const c = '{"contract":"lyon","number":3}';
const lines = (...records: string[]) => `{"states":[\n${records.join(",\n")}\n]}\n`;
const bytes = (text: string) => Buffer.from(text, "latin1");

/** A file as the next read gets it: its bytes and its records' sizes. */
function accepted(text: string): AcceptedBytes {
  const sizes = recordSizes(bytes(text));
  if (!sizes) throw new Error(`not a states file: ${text}`);
  return { bytes: bytes(text), sizes };
}

describe("splitStatesBytes", () => {
  it("parses only the records whose bytes are not the accepted file's at the same place", () => {
    const first = splitStatesBytes(bytes(lines(a, b, c)));
    expect(first?.sizes).toEqual([a.length, b.length, c.length]);
    expect(first?.changed).toEqual([
      { index: 0, raw: JSON.parse(a) },
      { index: 1, raw: JSON.parse(b) },
      { index: 2, raw: JSON.parse(c) },
    ]);
    const changed = '{"contract":"lyon","number":2,"stands":{"bikes":[3]}}';
    const next = splitStatesBytes(bytes(lines(a, changed, c)), accepted(lines(a, b, c)));
    expect(next?.sizes).toEqual([a.length, changed.length, c.length]);
    expect(next?.changed).toEqual([{ index: 1, raw: JSON.parse(changed) }]);
  });

  it("reads any layout JSON allows between records, in either file: one line, indented, CRLF", () => {
    const layouts = [
      lines(a, b, c),
      `{"states":[${a},${b},${c}]}`,
      `  {\r\n  "states" : [\r\n    ${a} ,\r\n\t${b},${c}\r\n  ]\r\n}`,
      JSON.stringify({ states: [JSON.parse(a), JSON.parse(b), JSON.parse(c)] }, null, 2),
    ];
    for (const text of layouts) {
      expect(recordSizes(bytes(text)), text).toEqual(splitStatesBytes(bytes(text))?.sizes);
      for (const before of layouts) {
        const split = splitStatesBytes(bytes(text), accepted(before));
        // The pretty-printed records are other bytes: parsed, and the same values.
        const parsed = split?.changed.map(({ raw }) => raw);
        if (text === layouts[3] || before === layouts[3])
          expect(parsed, `${before} → ${text}`).toEqual(
            text === before ? [] : [JSON.parse(a), JSON.parse(b), JSON.parse(c)],
          );
        else expect(parsed, `${before} → ${text}`).toEqual([]);
      }
    }
    expect(splitStatesBytes(bytes('{"states":[]}'))?.sizes).toEqual([]);
    expect(splitStatesBytes(bytes('{ "states" : [ ] }'), accepted(lines(a)))?.sizes).toEqual([]);
  });

  it("refuses what is not provably the JSON it would give, for the whole-file parser to report", () => {
    const known = accepted(lines(a, b, c));
    for (const text of [
      lines(a, b, c).replace("]}", "]"), // unclosed
      lines(a, b, c).replace(",\n", "\n"), // a missing comma between same-bytes records
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
      expect(splitStatesBytes(bytes(text), known), text).toBeUndefined();
      expect(splitStatesBytes(bytes(text)), text).toBeUndefined();
    }
  });

  it("refuses a file cut short anywhere, within its header too, without throwing", () => {
    const whole = lines(a, b, c);
    const known = accepted(whole);
    for (let size = 0; size < whole.trimEnd().length; size++) {
      const cut = bytes(whole.slice(0, size));
      expect(splitStatesBytes(cut, known), whole.slice(0, size)).toBeUndefined();
      expect(splitStatesBytes(cut), whole.slice(0, size)).toBeUndefined();
      expect(recordSizes(cut), whole.slice(0, size)).toBeUndefined();
    }
  });

  it("refuses bytes that are not all ASCII, which its Latin-1 decoding would misread", () => {
    const known = accepted(lines(a, b, c));
    for (const text of [
      lines(a, '{"contract":"lyon","number":2,"name":"Église"}', c), // UTF-8 accents
      `\ufeff${lines(a, b, c)}`, // a byte order mark
    ]) {
      const utf8 = Buffer.from(text, "utf8");
      expect(splitStatesBytes(utf8, known), text).toBeUndefined();
      expect(splitStatesBytes(utf8), text).toBeUndefined();
    }
  });

  it("does not take a longer record for the accepted one it starts with", () => {
    const known = accepted(lines('{"n":1}'));
    expect(splitStatesBytes(bytes(lines('{"n":12}')), known)?.changed).toEqual([
      { index: 0, raw: { n: 12 } },
    ]);
    expect(splitStatesBytes(bytes('{"states":[{"n":1}{"n":2}]}'), known)).toBeUndefined();
  });

  it("parses every record again when the sizes kept do not describe the accepted bytes", () => {
    const text = lines(a, b, c);
    for (const [sizes, wrong] of [
      [[a.length - 1, b.length, c.length], 0], // a's bytes but its last: not a whole object
      [[3, b.length, c.length], 0],
      [[a.length + 2, b.length, c.length], 0], // past the end of a and its comma
      [[a.length, b.length, c.length + 100], 2], // past the end of the file
    ] as const) {
      const split = splitStatesBytes(bytes(text), { bytes: bytes(text), sizes });
      expect(split?.sizes, String(sizes)).toEqual([a.length, b.length, c.length]);
      expect(split?.changed.map(({ index }) => index)).toContain(wrong);
    }
  });
});

describe("splitStatesBytes and a key given twice", () => {
  it("refuses a changed record holding a key twice, for the whole read to say where", () => {
    const twice = '{"contract":"lyon","number":2,"number":3}';
    expect(splitStatesBytes(bytes(lines(a, twice, c)))).toBeUndefined();
    expect(splitStatesBytes(bytes(lines(a, twice, c)), accepted(lines(a, b, c)))).toBeUndefined();
    // A key again in another object, or in a text, is no key given twice.
    const nested = '{"contract":"lyon","number":2,"stands":{"number":2,"name":"\\"number\\":"}}';
    expect(splitStatesBytes(bytes(lines(a, nested, c)), accepted(lines(a, b, c)))?.changed).toEqual(
      [{ index: 1, raw: JSON.parse(nested) }],
    );
  });
});
