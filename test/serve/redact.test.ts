import { describe, expect, it } from "vitest";
import { escapeControls, redactTarget, redactText } from "../../src/serve/redact.js";
import { parseTarget } from "../../src/serve/request-target.js";

const KEY = "0123456789abcdef0123456789abcdef01234567";
const logged = (raw: string) => {
  const { path, query } = parseTarget(raw);
  return redactTarget(path, query);
};

describe("redactTarget", () => {
  it("hides the apiKey however the query spells it", () => {
    expect(logged(`/a?apiKey=${KEY}&contract=x`)).toBe("/a?apiKey=<redacted>&contract=x");
    expect(logged("/a?contract=x&APIKEY=secret")).toBe("/a?contract=x&APIKEY=<redacted>");
    expect(logged("/a?api%4Bey=secret")).toBe("/a?apiKey=<redacted>");
    expect(logged("/a?apiKey[]=secret")).toBe("/a?apiKey%5B%5D=<redacted>");
    expect(logged("/a?api_key=secret")).toBe("/a?api_key=<redacted>");
    expect(logged("/a?x=1;apiKey=secret")).toBe("/a?x=1%3BapiKey%3D<redacted>");
  });

  it("hides every value that looks like a key, in any parameter or in the path", () => {
    expect(logged(`/a?token=${KEY}`)).toBe("/a?token=<redacted>");
    expect(logged(`/a?${KEY}`)).toBe("/a?<redacted>=");
    expect(logged(`/vls/${KEY}/x`)).toBe("/vls/<redacted>/x");
    // Each digit percent-escaped, or some of them: a client's encoder, or one who tries.
    const escaped = [...KEY].map((digit) => `%${digit.charCodeAt(0).toString(16)}`).join("");
    expect(logged(`/vls/${escaped}/x`)).toBe("/vls/<redacted>/x");
    expect(logged(`/vls/${KEY.slice(0, 20)}${escaped.slice(60)}`)).toBe("/vls/<redacted>");
    expect(logged("/vls/v3/stations/42?contract=dublin")).toBe(
      "/vls/v3/stations/42?contract=dublin",
    );
  });

  it("scrubs a long target in one pass: no key-name pattern scans to its end from each start", () => {
    // "apikey" again and again without "=": a pattern with an unbounded gap before "=" scanned the
    // rest of the target from each "api", a cost in the square of the length: ~14 s at 300 KB,
    // where a single pass takes a few milliseconds. Not a speed goal: a bound a thousand times
    // over the linear cost, which only the square's can break (a synchronous call cannot be
    // stopped by vitest's timeout).
    const path = `/${"apikey".repeat(50_000)}`;
    const started = performance.now();
    expect(redactTarget(path, new URLSearchParams())).toBe(path);
    expect(redactText(path)).toBe(path);
    expect(performance.now() - started).toBeLessThan(2_000);
    // The bounded gaps still reach every usual spelling.
    expect(logged("/a;api_key=secret")).toBe("/a;api_key=<redacted>");
    expect(logged("/a?x=1;apiKey%5B%5D=secret")).toBe("/a?x=1%3BapiKey%5B%5D%3D<redacted>");
  });

  it("reads absolute-form targets like origin-form ones", () => {
    expect(logged(`http://example.org:8080/a?apiKey=${KEY}`)).toBe("/a?apiKey=<redacted>");
    expect(parseTarget("HTTP://example.org").path).toBe("/");
  });

  it("never lets control characters through", () => {
    expect(logged("/a\x1b[2J?x=%1b%0a")).toBe("/a\\x1b[2J?x=%1B%0A");
    expect(escapeControls("a\u2028b\x7f")).toBe("a\\u2028b\\x7f");
    expect(redactText(`open /x?apiKey=${KEY}\n`)).toBe("open /x?apiKey=<redacted>\\x0a");
  });
});
