// Release files and ids: list ETags derived from their members', release ids from the content alone.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { listFile, makeRelease, type ReleaseFile, releaseFile } from "../../src/publish/release.js";

const COUNTS = { contracts: 0, stations: 0, parkings: 0 };
const AT = new Date("2026-11-20T08:16:00Z");
const member = (text: string): ReleaseFile =>
  releaseFile([Buffer.from(text)], "application/json", "dynamic");
const bytes = (file: ReleaseFile): string => Buffer.concat(file.body).toString();
const LIST = { name: "contractStations", contract: "lyon" } as const;

describe("listFile", () => {
  it("is [a,b,c] of its members' bytes, its size counted", () => {
    const list = listFile(LIST, [member('{"a":1}'), member('{"b":2}'), member("3")]);
    expect(bytes(list)).toBe('[{"a":1},{"b":2},3]');
    expect(list.size).toBe(Buffer.byteLength('[{"a":1},{"b":2},3]'));
    expect(bytes(listFile(LIST, []))).toBe("[]");
    expect(listFile(LIST, []).size).toBe(2);
  });

  it("tags the same bytes alike and other bytes otherwise", () => {
    const tag = (...texts: string[]) => listFile(LIST, texts.map(member)).etag;
    expect(tag("1", "2")).toBe(tag("1", "2"));
    expect(tag("1", "2")).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(tag("1", "2")).not.toBe(tag("2", "1"));
    expect(tag("1", "2")).not.toBe(tag("1", "3"));
    expect(tag("1", "2")).not.toBe(tag("1"));
  });
});

describe("makeRelease", () => {
  /** The id as defined: SHA-1 of `path etag` lines in path order. */
  const expectedId = (files: Map<string, ReleaseFile>) =>
    createHash("sha1")
      .update(
        [...files]
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([p, f]) => `${p} ${f.etag}\n`)
          .join(""),
      )
      .digest("hex")
      .slice(0, 16);

  it("derives the id from paths and ETags, whatever the order of the files", () => {
    const one = new Map([
      ["/b", member("1")],
      ["/a", member("2")],
    ]);
    const other = new Map([...one].reverse());
    expect(makeRelease(one, COUNTS, AT).id).toBe(expectedId(one));
    expect(makeRelease(other, COUNTS, AT).id).toBe(expectedId(one));
  });

  it("gives the right id when the paths change between releases of the same size", () => {
    const first = new Map([
      ["/a", member("1")],
      ["/b", member("2")],
      ["/c", member("3")],
    ]);
    const next = new Map([
      ["/a", member("1")],
      ["/b", member("2")],
      ["/0", member("3")],
    ]);
    expect(makeRelease(first, COUNTS, AT).id).toBe(expectedId(first));
    expect(makeRelease(next, COUNTS, AT).id).toBe(expectedId(next));
    const changed = new Map(next).set("/b", member("4"));
    expect(makeRelease(changed, COUNTS, AT).id).toBe(expectedId(changed));
  });
});
