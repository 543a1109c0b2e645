// A buffer a file is read into again and again: each read gives the file's bytes, whatever the
// buffer held before, and one buffer is reused as long as the files fit in it.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileBuffer } from "../../src/source/file-buffer.js";
import { tempDir } from "../helpers.js";

describe("FileBuffer", () => {
  it("reads each file whole into the same buffer while it fits, a bigger one into a bigger buffer", async () => {
    const dir = await tempDir("velodata-file-buffer-");
    const path = join(dir, "states.json");
    const buffer = new FileBuffer(100);
    await writeFile(path, "a".repeat(90));
    const first = await buffer.read(path);
    expect(first.toString()).toBe("a".repeat(90));
    await writeFile(path, "b".repeat(40));
    const second = await buffer.read(path);
    expect(second.toString()).toBe("b".repeat(40));
    expect(second.buffer).toBe(first.buffer); // reused: the first view now shows the second file
    await writeFile(path, "c".repeat(1000));
    const third = await buffer.read(path);
    expect(third.toString()).toBe("c".repeat(1000));
    expect(third.buffer).not.toBe(first.buffer);
  });

  it("holds a text as if read, and a later read fills the same buffer", async () => {
    const dir = await tempDir("velodata-file-buffer-");
    const path = join(dir, "states.json");
    const buffer = new FileBuffer();
    const held = buffer.hold('{"states":[]}');
    expect(held.toString("latin1")).toBe('{"states":[]}');
    await writeFile(path, '{"states":[1]}');
    const read = await buffer.read(path);
    expect(read.toString()).toBe('{"states":[1]}');
    expect(read.buffer).toBe(held.buffer);
  });
});
