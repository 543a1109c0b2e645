import { describe, expect, it } from "vitest";
import { releaseFile } from "../../src/publish/release.js";
import { etagFor, negotiate, notModified } from "../../src/serve/encoding.js";

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
  ])("picks %s → %s", (header, expected) => {
    expect(negotiate(header)).toBe(expected);
  });
  it("gives the same answer for a header it has already seen", () => {
    expect(negotiate("gzip;q=1, br;q=0.5")).toBe("gzip");
    expect(negotiate("gzip;q=1, br;q=0.5")).toBe("gzip");
  });
});

describe("notModified", () => {
  const file = releaseFile([Buffer.from("[1,2,3]")], "application/json", "static");
  it("matches the tag of any representation, weak or strong, in a list", () => {
    expect(notModified(file.etag, file)).toBe(true);
    expect(notModified(`"x", W/${etagFor(file, "br")}`, file)).toBe(true);
    expect(notModified("*", file)).toBe(true);
    expect(notModified('"other"', file)).toBe(false);
    expect(notModified(undefined, file)).toBe(false);
  });
});
