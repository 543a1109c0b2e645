// oncePerObject: the server's per-minute rules and renders rely on indexes made once per static data.
import { describe, expect, it } from "vitest";
import { oncePerObject } from "../src/once-per-object.js";

describe("oncePerObject", () => {
  it("derives once per object, again for another object, and remembers undefined too", () => {
    const calls: object[] = [];
    const sizeOf = oncePerObject((list: number[]) => {
      calls.push(list);
      return list.length === 0 ? undefined : list.length;
    });
    const a = [1, 2];
    const empty: number[] = [];
    expect([sizeOf(a), sizeOf(a), sizeOf([1, 2, 3]), sizeOf(empty), sizeOf(empty)]).toEqual([
      2,
      2,
      3,
      undefined,
      undefined,
    ]);
    expect(calls.length).toBe(3);
  });
});
