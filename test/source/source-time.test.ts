import { utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { staticSourceUpdatedAt } from "../../src/source/source-time.js";
import { fixtureCopy } from "../helpers.js";

const at = (text: string) => new Date(text);

describe("staticSourceUpdatedAt", () => {
  it("is the latest change of contracts and stations, to the second, whatever parkings and states do", async () => {
    const dir = await fixtureCopy();
    await utimes(
      join(dir, "contracts.json"),
      at("2026-01-01T00:00:00Z"),
      at("2026-01-01T00:00:00Z"),
    );
    await utimes(
      join(dir, "stations.csv"),
      at("2026-03-04T05:06:07.890Z"),
      at("2026-03-04T05:06:07.890Z"),
    );
    await utimes(
      join(dir, "parkings.json"),
      at("2027-01-01T00:00:00Z"),
      at("2027-01-01T00:00:00Z"),
    );
    await utimes(join(dir, "states.json"), at("2027-01-01T00:00:00Z"), at("2027-01-01T00:00:00Z"));
    expect((await staticSourceUpdatedAt(dir)).toISOString()).toBe("2026-03-04T05:06:07.000Z");

    await writeFile(join(dir, "contracts.json"), "{}");
    expect((await staticSourceUpdatedAt(dir)).getTime()).toBeGreaterThan(
      at("2026-03-04T05:06:08Z").getTime(),
    );
  });
});
