// IndexedMap: versions of a map over the same keys, each sharing the first's index.
import { describe, expect, it } from "vitest";
import { IndexedMap } from "../src/indexed-map.js";

describe("IndexedMap", () => {
  const map = new Map([
    ["b", 1],
    ["a", 2],
    ["c", 3],
  ]);

  it("reads like the Map it was made of, in the same order", () => {
    const indexed = IndexedMap.of(map);
    expect([...indexed]).toEqual([...map]);
    expect([...indexed.entries()]).toEqual([...map.entries()]);
    expect([...indexed.keys()]).toEqual(["b", "a", "c"]);
    expect([...indexed.values()]).toEqual([1, 2, 3]);
    expect(indexed.size).toBe(3);
    expect(indexed.get("a")).toBe(2);
    expect(indexed.get("z")).toBeUndefined();
    expect(indexed.has("c")).toBe(true);
    expect(indexed.has("z")).toBe(false);
    const seen: [string, number][] = [];
    indexed.forEach((value, key) => {
      seen.push([key, value]);
    });
    expect(seen).toEqual([...map]);
    expect(IndexedMap.of(indexed)).toBe(indexed);
    expect(new Map(indexed)).toEqual(map);
  });

  it("makes versions with some values replaced, leaving the first as it was", () => {
    const first = IndexedMap.of(map);
    const next = first.with(new Map([["a", 20]]));
    expect([...(next ?? [])]).toEqual([
      ["b", 1],
      ["a", 20],
      ["c", 3],
    ]);
    expect(first.get("a")).toBe(2);
    expect(next?.sameKeys(first)).toBe(true);
    expect(first.with(new Map([["z", 0]]))).toBeUndefined();
    const values = first.withValues([7, 8, 9]);
    expect(values.get("c")).toBe(9);
    expect(values.sameKeys(first)).toBe(true);
    expect(() => first.withValues([1])).toThrow();
    expect(IndexedMap.of(new Map(map)).sameKeys(first)).toBe(false);
    expect(first.sameKeys(map)).toBe(false);
  });

  it("is made from aligned lists of distinct keys only", () => {
    expect(IndexedMap.fromLists(["x", "y"], [1, 2])?.get("y")).toBe(2);
    expect(IndexedMap.fromLists(["x", "x"], [1, 2])).toBeUndefined();
  });
});
