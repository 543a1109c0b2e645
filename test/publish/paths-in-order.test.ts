// The release's paths in code-unit order, made again only when the paths change.
import { describe, expect, it } from "vitest";
import { pathsInOrder } from "../../src/publish/paths-in-order.js";

const filesOf = (...paths: string[]) => new Map(paths.map((path) => [path, {}]));

describe("pathsInOrder", () => {
  it("sorts by code unit, and hands the same order out again while the paths are the same", () => {
    const first = pathsInOrder(filesOf("/b", "/a", "/B", "/a/é"));
    expect(first).toEqual(["/B", "/a", "/a/é", "/b"]);
    // A release made from another: the same paths in the same order, or another order.
    expect(pathsInOrder(filesOf("/b", "/a", "/B", "/a/é"))).toBe(first);
    expect(pathsInOrder(filesOf("/a/é", "/B", "/b", "/a"))).toBe(first);
  });

  it("makes a new order when a path changes, however many there are", () => {
    pathsInOrder(filesOf("/c", "/a", "/b"));
    expect(pathsInOrder(filesOf("/a", "/b", "/d"))).toEqual(["/a", "/b", "/d"]);
    expect(pathsInOrder(filesOf("/d", "/a", "/e"))).toEqual(["/a", "/d", "/e"]);
    expect(pathsInOrder(filesOf("/a", "/d"))).toEqual(["/a", "/d"]);
  });
});
