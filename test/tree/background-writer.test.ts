import { existsSync, statSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BackgroundWriter } from "../../src/tree/background-writer.js";
import { tempDir } from "../helpers.js";

describe("BackgroundWriter", () => {
  it("writes every file under its root, in folders it makes, across several batches", async () => {
    const root = await tempDir();
    const writer = new BackgroundWriter(root);
    const count = 5000;
    const files = (function* () {
      for (let index = 0; index < count; index++)
        yield [
          `vls/v3/stations/c${index % 7}/${index}.json`,
          Buffer.from(`{"n":${index}}`),
        ] as const;
    })();
    writer.writeAll(files);
    await writer.finished();
    for (const index of [0, 2047, 2048, 4999])
      expect(
        await readFile(join(root, `vls/v3/stations/c${index % 7}/${index}.json`), "utf8"),
      ).toBe(`{"n":${index}}`);
  });

  it("writes views of shared memory with no help from this thread once they are handed over", async () => {
    const root = await tempDir();
    const writer = new BackgroundWriter(root);
    // 64 MB in 4,096 files: twice what may be in flight as copies, in two batches.
    const count = 4096;
    const size = 16 << 10;
    const memory = Buffer.from(new SharedArrayBuffer(count * size));
    for (let index = 0; index < count; index++)
      memory.fill(index % 251, index * size, (index + 1) * size);
    writer.writeAll(
      Array.from(
        { length: count },
        (_, index) =>
          [`c/${index}.json`, memory.subarray(index * size, (index + 1) * size)] as const,
      ),
    );
    // This thread never looks at its messages until the last file is whole on disk.
    const last = join(root, `c/${count - 1}.json`);
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && (statSync(last, { throwIfNoEntry: false })?.size ?? 0) < size);
    expect(statSync(last).size).toBe(size);
    await writer.finished();
    for (const index of [0, 2047, 2048, count - 1])
      expect(
        (await readFile(join(root, `c/${index}.json`))).equals(
          memory.subarray(index * size, (index + 1) * size),
        ),
      ).toBe(true);
  });

  it("writes copied bodies, empty ones too, beside views of shared memory", async () => {
    const root = await tempDir();
    const writer = new BackgroundWriter(root);
    const memory = Buffer.from(new SharedArrayBuffer(4));
    memory.write("{}[]");
    writer.writeAll([
      ["a.json", memory.subarray(0, 2)],
      ["copied.json", Buffer.from('{"n":1}')],
      ["empty.json", Buffer.alloc(0)],
      ["b.json", memory.subarray(2, 4)],
    ]);
    await writer.finished();
    expect(await readFile(join(root, "a.json"), "utf8")).toBe("{}");
    expect(await readFile(join(root, "copied.json"), "utf8")).toBe('{"n":1}');
    expect(await readFile(join(root, "empty.json"), "utf8")).toBe("");
    expect(await readFile(join(root, "b.json"), "utf8")).toBe("[]");
  });

  it("rejects with the system error and the file it met, and writes nothing after it", async () => {
    const root = await tempDir();
    await writeFile(join(root, "vls"), "a file where a folder is needed");
    const writer = new BackgroundWriter(root);
    writer.writeAll([
      ["vls/v3/contracts.json", Buffer.from("[]")],
      ["gbfs/gbfs.json", Buffer.from("{}")],
    ]);
    const failure = writer.finished();
    await expect(failure).rejects.toMatchObject({
      code: "ENOTDIR",
      path: expect.stringContaining(join(root, "vls")),
    });
    expect(existsSync(join(root, "gbfs/gbfs.json"))).toBe(false);
  });
});
