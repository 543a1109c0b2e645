// Release files and ids: list ETags derived from their members', release ids from the content alone.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  addVariants,
  listFile,
  listFileOf,
  makeRelease,
  type ReleaseFile,
  releaseFile,
  replaceFiles,
  staticFilesOf,
  withMembers,
} from "../../src/publish/release.js";

const COUNTS = { contracts: 0, stations: 0, parkings: 0 };
const AT = new Date("2026-11-20T08:16:00Z");
const member = (text: string): ReleaseFile =>
  releaseFile([Buffer.from(text)], "application/json", "dynamic");
const bytes = (file: ReleaseFile): string => Buffer.concat(file.body).toString();
const LIST = { name: "contractStations", contract: "lyon" } as const;

describe("releaseFile", () => {
  const sha1 = (bytes: Buffer) => `"${createHash("sha1").update(bytes).digest("base64url")}"`;

  it("tags a body with the SHA-1 of its bytes, however they are cut into chunks", () => {
    // Small chunks are hashed in batches of 64 KiB, big ones as they are: every order of both.
    const small = (n: number) => Buffer.alloc(700, n);
    const big = (n: number) => Buffer.alloc(40_000, n);
    const bodies = [
      [small(1)],
      [small(1), small(2)],
      Array.from({ length: 300 }, (_, n) => small(n)),
      [small(1), big(2), small(3)],
      [big(1), big(2)],
      [...Array.from({ length: 90 }, (_, n) => small(n)), big(7), small(8)],
      [Buffer.alloc(0), small(1), Buffer.alloc(0)],
      Array.from({ length: 500 }, (_, n) => (n % 2 ? Buffer.from(",") : small(n))),
      [],
    ];
    for (const body of bodies) {
      const file = releaseFile(body, "application/json", "dynamic");
      expect(file.etag).toBe(sha1(Buffer.concat(body)));
      expect(file.size).toBe(Buffer.concat(body).byteLength);
    }
  });
});

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

  it("is listFileOf's list of the same bytes and member tags", () => {
    const members = ["1", '{"b":2}', "[3]"].map(member);
    const list = listFile(LIST, members);
    const assembled = listFileOf(
      LIST,
      [Buffer.from('[1,{"b":2},[3]]')],
      list.size,
      members.map((one) => one.etag),
    );
    expect(list.etag).toBe(assembled.etag);
  });
});

describe("withMembers", () => {
  const texts = ["1", '{"b":2}', "[3]", '"four"', "5"];

  it("gives listFile's bytes, size and tag for the list with those members replaced", () => {
    let list = listFile(LIST, texts.map(member));
    const now = texts.slice();
    for (const [position, text] of [
      [0, "10"],
      [3, '{"longer":"member"}'],
      [4, "6"],
      [3, "[]"],
    ] as const) {
      const patched = withMembers(list, LIST, [[position, member(text)]]);
      now[position] = text;
      const whole = listFile(LIST, now.map(member));
      expect(patched && bytes(patched)).toBe(bytes(whole));
      expect(patched?.size).toBe(whole.size);
      expect(patched?.etag).toBe(whole.etag);
      list = patched as ReleaseFile;
    }
    // Several at once, the first list's bytes and tag untouched; patched once only.
    const first = listFile(LIST, texts.map(member));
    const tag = first.etag;
    const both = withMembers(first, LIST, [
      [1, member("7")],
      [2, member("8")],
    ]);
    expect(both?.etag).toBe(listFile(LIST, ["1", "7", "8", '"four"', "5"].map(member)).etag);
    expect(bytes(first)).toBe('[1,{"b":2},[3],"four",5]');
    expect(first.etag).toBe(tag);
    expect(withMembers(first, LIST, [[0, member("9")]])).toBeUndefined();
  });

  it("refuses a list listFile did not make, or a member tagged otherwise", () => {
    const spliced = listFileOf(LIST, [Buffer.from("[1]")], 3, [member("1").etag]);
    expect(withMembers(spliced, LIST, [[0, member("2")]])).toBeUndefined();
    const list = listFile(LIST, texts.map(member));
    const odd = { ...member("2"), etag: '"short"' };
    expect(withMembers(list, LIST, [[0, odd]])).toBeUndefined();
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

describe("staticFilesOf", () => {
  it("keeps the static files alone, in the release's order, from a map or a served release's index", () => {
    const contracts = releaseFile([Buffer.from("[]")], "application/json", "static");
    const bundle = releaseFile([Buffer.from("zip")], "application/zip", "static");
    const files = new Map([
      ["/contracts", contracts],
      ["/stations/1", member("1")],
      ["/bundle.zip", bundle],
      ["/stations/2", member("2")],
    ]);
    const expected = [
      ["/contracts", contracts],
      ["/bundle.zip", bundle],
    ];
    expect([...staticFilesOf(files)]).toEqual(expected);
    const served = replaceFiles(makeRelease(files, COUNTS, AT), new Map(), AT);
    expect([...staticFilesOf(served?.files ?? new Map())]).toEqual(expected);
  });
});

describe("replaceFiles", () => {
  const first = new Map([
    ["/b", member("1")],
    ["/a", member("2")],
    ["/c", member("3")],
  ]);

  it("gives the files, order and id of makeRelease over the same files", () => {
    const served = makeRelease(first, COUNTS, AT);
    const changed = new Map([["/a", member("4")]]);
    const replaced = replaceFiles(served, changed, AT);
    const expected = new Map(first).set("/a", changed.get("/a") as ReleaseFile);
    expect(replaced?.id).toBe(makeRelease(expected, COUNTS, AT).id);
    expect([...(replaced?.files ?? [])]).toEqual([...expected]);
    expect(replaced?.files.get("/a")).toBe(changed.get("/a"));
    expect(replaced?.files.get("/b")).toBe(first.get("/b"));
    expect(replaced?.files.get("/z")).toBeUndefined();
    // The served release is left as it was; the next refresh starts from this one.
    expect(served.files.get("/a")).toBe(first.get("/a"));
    const again = replaceFiles(replaced ?? served, new Map([["/c", member("5")]]), AT);
    expect(again?.files.get("/a")).toBe(changed.get("/a"));
    expect(again?.id).toBe(makeRelease(new Map(expected).set("/c", member("5")), COUNTS, AT).id);
  });

  it("keeps giving makeRelease's id from refresh to refresh, whatever the ETags", () => {
    let files = new Map(first);
    let served = makeRelease(files, COUNTS, AT);
    const variants = { gzip: Buffer.from("g"), br: Buffer.from("b") };
    const odd = (etag: string): ReleaseFile => ({ ...member("9"), etag });
    const steps: [string, ReleaseFile][][] = [
      [["/a", member("4")]],
      [
        ["/a", member("5")],
        ["/c", member("6")],
      ],
      [["/b", odd('"short"')]], // another length: the lines are made again
      [["/b", odd('"évidemment"')]],
      [["/b", member("7")]],
      [],
    ];
    for (const step of steps) {
      const changed = new Map(step);
      const replaced = replaceFiles(served, changed, AT);
      files = new Map([...files, ...changed]);
      expect(replaced?.id).toBe(makeRelease(files, COUNTS, AT).id);
      // The server's second swap: the same files with variants.
      const withTheirs = new Map([...changed].map(([path, file]) => [path, { ...file, variants }]));
      served = addVariants(replaced ?? served, withTheirs);
      expect(served.id).toBe(replaced?.id);
    }
  });

  it("declines a path the served release has not", () => {
    const served = makeRelease(first, COUNTS, AT);
    expect(replaceFiles(served, new Map([["/d", member("4")]]), AT)).toBeUndefined();
  });

  it("adds variants under the same id", () => {
    const served = makeRelease(first, COUNTS, AT);
    const variants = { gzip: Buffer.from("g"), br: Buffer.from("b") };
    const compressed = { ...(first.get("/a") as ReleaseFile), variants };
    const added = addVariants(served, new Map([["/a", compressed]]));
    expect(added.id).toBe(served.id);
    expect(added.files.get("/a")?.variants).toBe(variants);
    expect(served.files.get("/a")?.variants).toBeUndefined();
  });
});
