import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeChunks, writeChunksInPool } from "../../src/tree/write-chunks.js";
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

describe("writeChunksInPool", () => {
  it("writes more chunks than one writev takes, empty ones among them, in order and whole", async () => {
    const chunks = Array.from({ length: 2500 }, (_, index) =>
      Buffer.from(index % 7 === 0 ? "" : `${index},`.repeat(1 + (index % 5))),
    );
    const file = join(await tempDir(), "list.json");
    await writeChunksInPool(file, chunks);
    expect((await readFile(file)).equals(Buffer.concat(chunks))).toBe(true);
  });

  it("replaces what the file held", async () => {
    const file = join(await tempDir(), "list.json");
    writeChunks(file, [Buffer.from("a much longer previous content")]);
    await writeChunksInPool(file, [Buffer.from("[1"), Buffer.from("]")]);
    expect(await readFile(file, "utf8")).toBe("[1]");
  });

  it("fails with the file's path when it cannot be written", async () => {
    const file = join(await tempDir(), "no-such-folder", "list.json");
    await expect(writeChunksInPool(file, [Buffer.from("[]")])).rejects.toMatchObject({
      code: "ENOENT",
      path: file,
    });
  });
});
