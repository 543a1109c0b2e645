// Text encoded into big buffers as it comes: the bytes are those of the whole text, whatever the
// characters and wherever a buffer ends.
import { describe, expect, it } from "vitest";
import { TextChunks } from "../../src/tree/text-chunks.js";

const joined = (chunks: readonly Buffer[]) => Buffer.concat(chunks);

describe("TextChunks", () => {
  it("gives the UTF-8 bytes of the text added, across buffer ends and in every width of character", () => {
    // ~300,000 characters each, 1 to 4 bytes apiece: a buffer (1 MiB) ends inside the third or fourth.
    const parts = ["Place de l'Hôtel de Ville ", "Ж", "€", "🚲", "a"].map((unit) =>
      unit.repeat(300_000),
    );
    const text = new TextChunks();
    for (const part of parts) {
      text.add(part);
      text.addByte(0x0a);
    }
    const chunks = text.done();
    expect(chunks.length).toBeGreaterThan(1);
    expect(joined(chunks).equals(Buffer.from(parts.map((part) => `${part}\n`).join("")))).toBe(
      true,
    );
  });

  it("takes a text bigger than a buffer whole, and gives nothing for nothing", () => {
    const big = "é".repeat(1 << 20);
    const text = new TextChunks();
    text.add("[");
    text.add(big);
    text.add("]");
    expect(joined(text.done()).toString()).toBe(`[${big}]`);
    expect(new TextChunks().done()).toEqual([]);
  });
});
