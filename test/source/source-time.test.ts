import { utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatProblem } from "../../src/source/problems.js";
import { readDataset } from "../../src/source/read-dataset.js";
import { sourceTimeProblems, staticSourceTimes } from "../../src/source/source-time.js";
import { fixtureCopy } from "../helpers.js";

const staticSourceUpdatedAt = (dir: string, now?: number) =>
  staticSourceTimes(dir, now).staticUpdatedAt;
const staticDataUpdatedAt = (dir: string) => staticSourceTimes(dir).dataUpdatedAt;

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
    expect(staticSourceUpdatedAt(dir).toISOString()).toBe("2026-03-04T05:06:07.000Z");

    await writeFile(join(dir, "contracts.json"), "{}");
    expect(staticSourceUpdatedAt(dir).getTime()).toBeGreaterThan(
      at("2026-03-04T05:06:08Z").getTime(),
    );
  });

  it("moves with the parkings for the bundle's date (staticDataUpdatedAt), never for GBFS's", async () => {
    const dir = await fixtureCopy();
    const touch = (name: string, when: string) => utimes(join(dir, name), at(when), at(when));
    await touch("contracts.json", "2026-01-01T00:00:00Z");
    await touch("stations.csv", "2026-01-01T00:00:00Z");
    await touch("parkings.json", "2026-02-03T04:05:06.700Z");
    await touch("states.json", "2026-03-01T00:00:00Z");
    expect(staticSourceUpdatedAt(dir).toISOString()).toBe("2026-01-01T00:00:00.000Z");
    expect(staticDataUpdatedAt(dir).toISOString()).toBe("2026-02-03T04:05:06.000Z");
  });

  it("brings a time no GBFS feed may say within them, and says so: 1970 (image builders), or ahead of the clock", async () => {
    const dir = await fixtureCopy();
    const touch = (when: Date) =>
      Promise.all(
        ["contracts.json", "stations.csv"].map((name) => utimes(join(dir, name), when, when)),
      );
    await touch(at("1970-01-01T00:00:01Z"));
    expect(staticSourceUpdatedAt(dir).toISOString()).toBe("2015-12-15T05:00:00.000Z");
    const warnings = (await readDataset(dir)).problems.map(formatProblem);
    expect(warnings).toContain(
      `${join(dir, "contracts.json")}: modified 1970-01-01T00:00:01Z, before 2015-12-15, the earliest time GBFS accepts: the static GBFS feeds say 2015-12-15T05:00:00Z; give the files their real time (touch)`,
    );

    await touch(at("2027-06-01T00:00:00Z"));
    const now = at("2026-12-02T10:20:30.400Z").getTime();
    expect(staticSourceUpdatedAt(dir, now).toISOString()).toBe("2026-12-02T10:20:30.000Z");
    expect(sourceTimeProblems(dir, now).map(formatProblem)).toEqual([
      `${join(dir, "contracts.json")}: modified 2027-06-01T00:00:00Z, ahead of this machine's clock: the static GBFS feeds say the time of this run instead; check the clock of the machine that wrote it`,
    ]);

    await touch(at("2026-12-02T10:30:00Z")); // ten minutes ahead: another machine's clock
    expect(staticSourceUpdatedAt(dir, now).toISOString()).toBe("2026-12-02T10:20:30.000Z");
    expect(sourceTimeProblems(dir, now)).toEqual([]);
  });
});
