import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeChunks } from "../../src/tree/write-chunks.js";
import { tempDir } from "../helpers.js";

describe("writeChunks", () => {
  it("writes more chunks than one writev takes, empty ones among them, in order and whole", async () => {
    const chunks = Array.from({ length: 2500 }, (_, index) =>
      Buffer.from(index % 7 === 0 ? "" : `${index},`.repeat(1 + (index % 5))),
    );
    const file = join(await tempDir(), "list.json");
    writeChunks(file, chunks);
    expect((await readFile(file)).equals(Buffer.concat(chunks))).toBe(true);
  });

  it("replaces what the file held", async () => {
    const file = join(await tempDir(), "list.json");
    writeChunks(file, [Buffer.from("a much longer previous content")]);
    writeChunks(file, [Buffer.from("[1"), Buffer.from("]")]);
    expect(await readFile(file, "utf8")).toBe("[1]");
  });
});
