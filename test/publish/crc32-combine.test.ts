import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { crc32Combine } from "../../src/publish/crc32-combine.js";

const bytes = (size: number, seed: number): Buffer =>
  Buffer.from(Array.from({ length: size }, (_, at) => (at * seed + 7) & 255));

describe("crc32Combine", () => {
  it("gives the CRC-32 of two parts joined, whatever their sizes", () => {
    for (const [first, second] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [5, 7],
      [1000, 3],
      [3, 100_000],
      [70_000, 1 << 20],
    ] as const) {
      const a = bytes(first, 31);
      const b = bytes(second, 17);
      expect(crc32Combine(crc32(a), crc32(b), second), `${first} + ${second}`).toBe(
        crc32(Buffer.concat([a, b])),
      );
    }
  });

  it("joins many parts one after the other", () => {
    const parts = Array.from({ length: 50 }, (_, at) => bytes(1 + at * 997, at + 3));
    const combined = parts.reduce(
      (crc, part, at) => (at === 0 ? crc32(part) : crc32Combine(crc, crc32(part), part.length)),
      0,
    );
    expect(combined).toBe(crc32(Buffer.concat(parts)));
  });
});
