// Finding a key given twice in an object of JSON text: JSON.parse keeps the last one, silently.
import { describe, expect, it } from "vitest";
import { duplicateKeys, givesKeyTwice } from "../../src/source/duplicate-keys.js";

describe("duplicateKeys", () => {
  it("finds each key given twice, with the path to it: keys of objects, positions in lists", () => {
    const text = '{"s": [{"a": 1, "b": {"c": 2, "c": 3}}, {"a": 1, "a": 2, "a": 3}], "s": []}';
    expect(duplicateKeys(text)).toEqual([["s", 0, "b", "c"], ["s", 1, "a"], ["s", 1, "a"], ["s"]]);
  });

  it("finds none where the same key is in other objects, in values, or in strings", () => {
    const texts = [
      '{"a": {"a": {"a": 1}}, "b": [{"a": 1}, {"a": 2}]}',
      '{"a": "\\"a\\": 1, \\"a\\": 2", "b": "a", "c": ["a", "a"]}',
      '[{"a": 1}, {"a": 1}]',
      '  {\r\n "a" : 1 ,\t"b":{ } , "c" : [ ] }  ',
      "42",
    ];
    for (const text of texts) expect(duplicateKeys(text), text).toEqual([]);
  });

  it("reads keys as JSON does: an escape is the character it stands for", () => {
    expect(duplicateKeys('{"name": 1, "na\\u006de": 2}')).toEqual([["name"]]);
    expect(duplicateKeys('{"a\\"": 1, "a\\\\": 2, "a": 3}')).toEqual([]);
  });

  it("looks only between `start` and `end`: one record of a file", () => {
    const text = '{"states":[{"a":1,"a":2},{"a":1}]}';
    const second = text.lastIndexOf("{");
    expect(duplicateKeys(text, second, text.length - 2)).toEqual([]);
    expect(duplicateKeys(text, 11, second - 1)).toEqual([["a"]]);
  });
});

describe("givesKeyTwice", () => {
  it("tells a text writing a key twice from one that does not, keys in strings aside", () => {
    const cases: [string, boolean][] = [
      ['{"a": 1, "b": {"c": 2, "c": 3}}', true],
      ['{"s": [{"a": 1}, {"a": 1, "a": 2}]}', true],
      ['{"name": 1, "na\\u006de": 2}', true],
      ['{"a": {"a": {"a": 1}}, "b": [{"a": 1}, {"a": 2}]}', false],
      ['{"a": "\\"a\\": 1, \\"a\\": 2", "b" : "a" , "c": ["a", "a:"]}', false],
      ["[1, 2]", false],
    ];
    for (const [text, twice] of cases)
      expect(givesKeyTwice(text, JSON.parse(text)), text).toBe(twice);
  });
});
