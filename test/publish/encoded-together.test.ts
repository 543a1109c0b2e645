import { describe, expect, it } from "vitest";
import { encodedTogether } from "../../src/publish/encoded-together.js";

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
  });
});
