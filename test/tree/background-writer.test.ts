import { existsSync } from "node:fs";
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
