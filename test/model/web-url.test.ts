// Links are held to what the GBFS schemas' `format: "uri"` accepts (ajv-formats, as validators use).
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { notUri } from "../../src/model/uri.js";
import { webUrl } from "../../src/model/web-url.js";

const isUri = (() => {
  const ajv = new Ajv();
  addFormats.default(ajv);
  return ajv.compile({ type: "string", format: "uri" });
})();

const LINKS = [
  "https://example.org/open-data",
  "https://example.org/ok?x=1&y=%C3%A9#part",
  "https://[::1]:8080/x",
  "https://www.dublinbikes.ie/plan du réseau",
  "https://example.org/licence|odbl",
  "https://example.org/a%zz",
  "https://x.org/en/stations[all]",
  "https://x.org/?q=[x]",
  "https://x.org/#a#b",
  "https://vélo.example/x y",
  "https://example.org/{a}^",
  "http://ex{ample.org/bikes",
];

describe("webUrl", () => {
  it("says of a host no encoding mends that it is no host name", () => {
    expect(notUri("http://ex{ample.org/bikes")).toBe(
      'must be written as a URI: its host "ex{ample.org" is no host name',
    );
    // As written: not in punycode, without the port.
    expect(notUri("https://vélo{x.example:8443/api")).toBe(
      'must be written as a URI: its host "vélo{x.example" is no host name',
    );
  });

  it("refuses exactly the links the GBFS schemas refuse, and the form it suggests passes them", () => {
    for (const link of LINKS) {
      const problem = notUri(link);
      expect(problem === null, link).toBe(isUri(link));
      const suggested = /percent-encoded: "(.*)"$/.exec(problem ?? "")?.[1];
      if (suggested) expect(isUri(suggested), suggested).toBe(true);
    }
  });

  it("says one thing of what is no http(s) URL at all", () => {
    const result = webUrl().safeParse("javascript:alert(1) x");
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      "must be an http or https URL, e.g. https://example.org/open-data",
    ]);
  });
});
