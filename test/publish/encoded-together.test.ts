import { describe, expect, it } from "vitest";
import { encodedInChunks, encodedTogether } from "../../src/publish/encoded-together.js";

describe("encodedTogether", () => {
  it("encodes each text as Buffer.from would, in one buffer of exactly their size", () => {
    const texts = ['{"name":"Église Saint-Pierre"}', "", '{"bikes":3}', "日本"];
    const views = encodedTogether(texts);
    expect(views.map((view) => view.toString("utf8"))).toEqual(texts);
    views.forEach((view, index) => {
      expect(view.equals(Buffer.from(texts[index] as string))).toBe(true);
    });
    const size = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
    // Their own buffer, shared with nothing else: freed when they all are.
    for (const view of views) {
      expect(view.buffer).toBe(views[0]?.buffer);
      expect(view.buffer.byteLength).toBe(size);
    }
    // Shared memory: V8 does not start markings of its heap for it (see encoded-together.ts).
    expect(views[0]?.buffer).toBeInstanceOf(SharedArrayBuffer);
  });
});

describe("encodedInChunks", () => {
  it("encodes each rendering as Buffer.from would, as views of one shared chunk", () => {
    const encode = encodedInChunks();
    const first = encode(['{"name":"Église Saint-Pierre"}', '{"bikes":3}']);
    const second = encode(["日本", ""]);
    expect(first.map((view) => view.toString("utf8"))).toEqual([
      '{"name":"Église Saint-Pierre"}',
      '{"bikes":3}',
    ]);
    expect(second.map((view) => view.toString("utf8"))).toEqual(["日本", ""]);
    // Back to back in one buffer of 64 MB: no external memory counted per rendering.
    expect(second[0]?.buffer).toBe(first[0]?.buffer);
    expect(second[0]?.byteOffset).toBe((first[1]?.byteOffset ?? 0) + (first[1]?.length ?? 0));
    expect(first[0]?.buffer.byteLength).toBe(64 << 20);
    // Shared memory: another thread writes the answers to disk from it as they are.
    expect(first[0]?.buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  it("fills a chunk to its last byte when a rendering fits by its size, if not by its longest encoding", () => {
    const encode = encodedInChunks();
    const [head] = encode(["a".repeat((64 << 20) - 10)]);
    const [fits] = encode(["é".repeat(5)]); // 10 bytes: the room left
    expect(fits?.buffer).toBe(head?.buffer);
    expect(fits?.toString()).toBe("é".repeat(5));
    const [next] = encode(["é"]);
    expect(next?.buffer).not.toBe(head?.buffer);
    expect(head?.toString()).toBe("a".repeat((64 << 20) - 10));
  });

  it("starts a bigger chunk when a rendering does not fit, and never overwrites one given out", () => {
    const encode = encodedInChunks();
    const small = encode(["a".repeat(1000)]);
    const big = encode(["b".repeat(64 << 20)]); // past the first chunk's room
    expect(big[0]?.buffer).not.toBe(small[0]?.buffer);
    expect(big[0]?.length).toBe(64 << 20);
    const after = encode(["c".repeat(10)]);
    expect(small[0]?.toString()).toBe("a".repeat(1000));
    expect(after[0]?.toString()).toBe("c".repeat(10));
  });
});
