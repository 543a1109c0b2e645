// A publish in steps (`pause`), as a server makes one of an edited static source while it answers:
// the same release as in one go, with the requests that came let in between two contracts.
import { describe, expect, it } from "vitest";
import { publish } from "../../src/publish/publish.js";
import { fixtureDataset, GENERATED_AT } from "./publish-helpers.js";

describe("publish with a pause", () => {
  it("makes the release it makes in one go, pausing between contracts", async () => {
    const dataset = await fixtureDataset();
    const options = { generatedAt: GENERATED_AT, baseUrl: "https://bikes.example.org/api" };
    const whole = (await publish(dataset, options)).release;
    let pauses = 0;
    // What each pause lets run: a request answered meanwhile, here a turn of the event loop.
    let turns = 0;
    const pause = async () => {
      pauses++;
      await new Promise<void>((resolve) =>
        setImmediate(() => {
          turns++;
          resolve();
        }),
      );
    };
    const stepped = (await publish(dataset, { ...options, pause })).release;
    expect(stepped.id).toBe(whole.id);
    expect([...stepped.files.keys()]).toEqual([...whole.files.keys()]);
    for (const [path, file] of whole.files)
      expect(stepped.files.get(path)?.etag, path).toBe(file.etag);
    // Each contract's station answers, each contract's static ones, and once before the id.
    expect(pauses).toBe(2 * dataset.contracts.length + 1);
    expect(turns).toBe(pauses);
  });
});
