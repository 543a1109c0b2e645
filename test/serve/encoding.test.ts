import { describe, expect, it } from "vitest";
import { releaseFile } from "../../src/publish/release.js";
import { etagFor, ifMatchHolds, matchedEncoding, negotiate } from "../../src/serve/encoding.js";

describe("negotiate", () => {
  it.each([
    [undefined, "identity"],
    ["gzip, deflate, br", "br"],
    ["gzip", "gzip"],
    ["br;q=0.2, gzip;q=0.8", "gzip"],
    ["br;q=0, gzip;q=0", "identity"],
    ["*", "br"],
    ["*;q=0, gzip", "gzip"],
    ["deflate", "identity"],
    ["identity;q=1, gzip;q=0.5", "identity"],
    ["identity, br;q=0.1", "identity"],
    ["gzip, identity", "gzip"],
    ["identity;q=0.5, *", "br"],
    ["gzip;q=abc", "identity"],
    ["gzip;q=2, br;q=1.5", "identity"],
    ["gzip;q=0.123", "gzip"],
    ["br;q=0.1234, gzip;q=0.1", "gzip"],
    ["x-gzip", "gzip"],
    // RFC 9110 §12.4.2: white space around the semicolon (weight = OWS ";" OWS "q=" qvalue).
    ["br ;q=0, *", "gzip"],
    ["gzip ;q=0.8", "gzip"],
    ["gzip ; q=0, br ;q=0, *", "identity"],
    ["BR\t;q=0, *", "gzip"],
  ])("picks %s → %s", (header, expected) => {
    expect(negotiate(header)).toBe(expected);
  });
  it("gives the same answer for a header it has already seen", () => {
    expect(negotiate("gzip;q=1, br;q=0.5")).toBe("gzip");
    expect(negotiate("gzip;q=1, br;q=0.5")).toBe("gzip");
  });
});

describe("matchedEncoding", () => {
  const body = [Buffer.from("[1,2,3]")];
  const bare = releaseFile(body, "application/json", "static");
  const file = { ...bare, variants: { gzip: Buffer.from("g"), br: Buffer.from("b") } };
  it("names the representation a tag of the list matches, weak or strong", () => {
    expect(matchedEncoding(file.etag, file, "br")).toBe("identity");
    expect(matchedEncoding(`"x", W/${etagFor(file, "br")}`, file, "gzip")).toBe("br");
    expect(matchedEncoding(`${etagFor(file, "gzip")}`, file, "identity")).toBe("gzip");
    expect(matchedEncoding('"other"', file, "br")).toBeNull();
    expect(matchedEncoding(undefined, file, "br")).toBeNull();
  });
  it("prefers the negotiated one among several, and gives it for *", () => {
    const both = `${file.etag}, ${etagFor(file, "gzip")}`;
    expect(matchedEncoding(both, file, "gzip")).toBe("gzip");
    expect(matchedEncoding(both, file, "br")).toBe("identity");
    expect(matchedEncoding("*", file, "br")).toBe("br");
  });
  it("matches only the identity tag of a file without variants", () => {
    expect(matchedEncoding(etagFor(file, "gzip"), bare, "identity")).toBeNull();
    expect(matchedEncoding(`W/${bare.etag}`, bare, "identity")).toBe("identity");
  });
});

describe("ifMatchHolds", () => {
  const tag = '"5d41402a"';
  it("holds for the representation's own tag, alone or in a list, and for *", () => {
    expect(ifMatchHolds(tag, tag)).toBe(true);
    expect(ifMatchHolds(`"other", ${tag}`, tag)).toBe(true);
    expect(ifMatchHolds("*", tag)).toBe(true);
  });
  it("compares strongly: a weak tag, another tag or another encoding's never holds", () => {
    expect(ifMatchHolds(`W/${tag}`, tag)).toBe(false);
    expect(ifMatchHolds('"other"', tag)).toBe(false);
    expect(ifMatchHolds('"5d41402a-gzip"', tag)).toBe(false);
  });
});
