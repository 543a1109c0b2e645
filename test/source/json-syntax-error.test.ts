// Where a hand-edited JSON text breaks, said by line and column even where V8 gives no offset.
import { describe, expect, it } from "vitest";
import { jsonSyntaxError } from "../../src/source/json-syntax-error.js";

const errorOf = (text: string, quotesText?: boolean) => {
  try {
    JSON.parse(text);
  } catch (cause) {
    return jsonSyntaxError(text, cause, quotesText === undefined ? {} : { quotesText });
  }
  throw new Error(`${text} parsed`);
};

describe("jsonSyntaxError", () => {
  it("finds a token V8 only quotes, the text around it holding it twice", () => {
    expect(errorOf("garbage\n")).toEqual({ line: 1, column: 1, fault: 'unexpected "g"' });
    expect(errorOf('{"keys": [\n  {"g": g}\n]}')).toEqual({
      line: 2,
      column: 9,
      fault: 'unexpected "g"',
    });
  });

  it("takes a prefix cut inside a string, a word or a number for the start of JSON, not its fault", () => {
    // Each fault's token twice in what V8 quotes: found by parsing prefixes, some cut short.
    expect(errorOf('{"}":tr}')).toEqual({ line: 1, column: 8, fault: 'unexpected "}"' });
    expect(errorOf('[-1.5e3,n,"n"]')).toEqual({ line: 1, column: 10, fault: 'unexpected ","' });
  });

  it("quotes none of the text when told not to, V8's words before its quote only", () => {
    // Too long to search by parsing again, its token twice in what V8 quotes: V8's words alone.
    const text = `{"aa": aa, "pad": "${"y".repeat(1 << 20)}"}`;
    expect(errorOf(text).fault).toContain('"{"aa": aa');
    expect(errorOf(text, false)).toEqual({ fault: "Unexpected token 'a'" });
  });
});
