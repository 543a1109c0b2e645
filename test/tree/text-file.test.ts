// Text written to a file through one buffer as it comes: the file holds the text's bytes, whatever
// the characters and wherever the buffer fills, and the hash is of exactly what was written.
import { createHash } from "node:crypto";
import { closeSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TextFile } from "../../src/tree/text-file.js";
import { tempDir } from "../helpers.js";

async function written(
  write: (text: TextFile) => void,
  position = 0,
): Promise<{ bytes: Buffer; sha1: string }> {
  const path = join(await tempDir(), "text");
  const fd = openSync(path, "w");
  const hash = createHash("sha1");
  try {
    const text = new TextFile(fd, position, hash);
    write(text);
    text.flush();
  } finally {
    closeSync(fd);
  }
  return { bytes: readFileSync(path), sha1: hash.digest("hex") };
}

describe("TextFile", () => {
  it("writes the UTF-8 bytes of the text added, across buffer ends and in every width of character", async () => {
    // ~300,000 characters each, 1 to 4 bytes apiece: the buffer (1 MiB) fills inside the third or fourth.
    const parts = ["Place de l'Hôtel de Ville ", "Ж", "€", "🚲", "a"].map((unit) =>
      unit.repeat(300_000),
    );
    const { bytes, sha1 } = await written((text) => {
      for (const part of parts) {
        text.add(part);
        text.addByte(0x0a);
      }
    });
    const expected = Buffer.from(parts.map((part) => `${part}\n`).join(""));
    expect(bytes.length).toBeGreaterThan(1 << 20);
    expect(bytes.equals(expected)).toBe(true);
    expect(sha1).toBe(createHash("sha1").update(expected).digest("hex"));
  });

  it("takes a text bigger than its buffer whole, from the position given on", async () => {
    const big = "é".repeat(1 << 20);
    const { bytes, sha1 } = await written((text) => {
      text.add("[");
      text.add(big);
      text.add("]");
    }, 3);
    // The three bytes skipped are a hole: zeros, and not hashed.
    expect(bytes.subarray(0, 3)).toEqual(Buffer.alloc(3));
    expect(bytes.subarray(3).toString()).toBe(`[${big}]`);
    expect(sha1).toBe(createHash("sha1").update(`[${big}]`).digest("hex"));
    expect((await written(() => {})).bytes.length).toBe(0);
  });
});
