import { describe, expect, it } from "vitest";
import { requestWindows } from "../../src/serve/request-windows.js";

describe("requestWindows", () => {
  it("allows `most` requests in a window opened by the first, then says the seconds left", () => {
    const windows = requestWindows(60, 10);
    const start = 1_000_000;
    expect([0, 1, 2].map((at) => windows.count("a", 3, start + at * 1000))).toEqual([0, 0, 0]);
    expect(windows.count("a", 3, start + 20_500)).toBe(40);
    expect(windows.count("a", 3, start + 59_999)).toBe(1);
    // Another name has a window of its own; the next window opens at the first request after.
    expect(windows.count("b", 3, start + 59_999)).toBe(0);
    expect(windows.count("a", 3, start + 60_000)).toBe(0);
  });

  it("forgets the oldest windows past `maxNames`", () => {
    const windows = requestWindows(60, 2);
    expect(windows.count("a", 1, 0)).toBe(0);
    expect(windows.count("a", 1, 1)).toBe(60);
    windows.count("b", 1, 2);
    windows.count("c", 1, 3);
    expect(windows.count("a", 1, 4)).toBe(0);
  });
});
