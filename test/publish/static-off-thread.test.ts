// A build's static answers rendered by a worker thread (the compiled one: it sits beside `dist`'s
// module): the same answers, in the same order, as publishStatic makes here, their bytes in shared
// memory; a failure there is reported here.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { encodedInChunks } from "../../src/publish/encoded-together.js";
import { publishStatic } from "../../src/publish/publish.js";
import type { publishStaticOffThread as OffThread } from "../../src/publish/static-off-thread.js";
import type { Dataset } from "../../src/source/dataset.js";
import { ROOT } from "../helpers.js";
import { fixtureDataset, GENERATED_AT } from "./publish-helpers.js";

const OPTIONS = {
  generatedAt: GENERATED_AT,
  staticUpdatedAt: new Date("2026-11-01T06:00:00Z"),
  baseUrl: "https://bikes.example.org/api",
};

async function compiled(): Promise<typeof OffThread> {
  const module = pathToFileURL(join(ROOT, "dist/publish/static-off-thread.js")).href;
  return ((await import(module)) as { publishStaticOffThread: typeof OffThread })
    .publishStaticOffThread;
}

const bytesOf = (body: readonly Uint8Array[]) => Buffer.concat(body).toString("base64");

describe("publishStaticOffThread", () => {
  it("gives publishStatic's answers, in its order, from shared memory", async () => {
    const dataset = await fixtureDataset();
    const there = await (await compiled())(dataset, OPTIONS);
    const here = await publishStatic(dataset, { ...OPTIONS, encode: encodedInChunks() });
    expect([...there.keys()]).toEqual([...here.keys()]);
    for (const [path, file] of here) {
      const made = there.get(path);
      expect(made?.etag, path).toBe(file.etag);
      expect(made?.contentType, path).toBe(file.contentType);
      expect(made?.freshness, path).toBe(file.freshness);
      expect(made?.size, path).toBe(file.size);
      expect(bytesOf(made?.body ?? []), path).toBe(bytesOf(file.body));
    }
    // The per-contract station tables are encoded into the worker's chunks: shared, not copied.
    const table = there.get("/rest/vls/stations/dublin.csv")?.body.at(-1);
    expect(table?.buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  it("encodes each answer apart for a server (`together`): none shares its memory with another", async () => {
    const dataset = await fixtureDataset();
    const owners = async (encoding: "chunks" | "together") => {
      const files = await (await compiled())(dataset, OPTIONS, encoding);
      const tables = [...files]
        .filter(([path]) => path.startsWith("/rest/vls/stations/"))
        .map(([, file]) => file.body.at(-1)?.buffer);
      expect(tables.length).toBeGreaterThan(1);
      for (const buffer of tables) expect(buffer).toBeInstanceOf(SharedArrayBuffer);
      return new Set(tables).size / tables.length;
    };
    // In chunks, the contracts' tables share one; together, each its own, freed with its answer.
    expect(await owners("chunks")).toBeLessThan(1);
    expect(await owners("together")).toBe(1);
  });

  it("reports what went wrong in the worker", async () => {
    const dataset = await fixtureDataset();
    const broken: Dataset = {
      ...dataset,
      contracts: [
        { ...(dataset.contracts[0] as Dataset["contracts"][number]), cities: 7 as never },
      ],
    };
    await expect((await compiled())(broken, OPTIONS)).rejects.toThrow(
      /^rendering the static answers: /,
    );
  });
});
