import { beforeAll, describe, expect, it } from "vitest";
import { GBFS_VERSIONS } from "../../../../src/publish/render/gbfs/feed.js";
import type { Dataset } from "../../../../src/source/dataset.js";
import { fixtureDataset } from "../../publish-helpers.js";
import {
  type ContractFeeds,
  fixtureFeeds,
  manifestOf,
  schemaOf,
  synthDataset,
} from "./gbfs-helpers.js";

let dataset: Dataset;
let feeds: ContractFeeds[];
beforeAll(async () => {
  dataset = await fixtureDataset();
  feeds = fixtureFeeds(dataset);
});

describe("every GBFS file of the fixtures against the official JSON schemas", () => {
  it("renders the six files of both versions for every contract", () => {
    expect(feeds.map((contract) => contract.contract)).toEqual(
      dataset.contracts.map((contract) => contract.name),
    );
    for (const contract of feeds) {
      const names = contract.files.map((file) => `${file.version} ${file.feed}`).sort();
      expect(names).toEqual(
        GBFS_VERSIONS.flatMap((version) =>
          [
            "gbfs",
            "gbfs_versions",
            "station_information",
            "station_status",
            "system_information",
            "vehicle_types",
          ].map((feed) => `${version} ${feed}`),
        ).sort(),
      );
    }
  });

  it("validates each one (60 files)", () => {
    expect(validatedFiles(feeds)).toBe(60);
  });

  it("validates the manifest", () => {
    const validate = schemaOf("3.0", "manifest");
    expect(validate(JSON.parse(JSON.stringify(manifestOf(dataset))))).toBe(true);
  });

  it("validates each file of a synthetic network (24 files and the manifest)", async () => {
    const synthetic = await synthDataset();
    // Another shape than the fixtures': overflow stands holding bikes, closed and disconnected stations.
    const states = [...synthetic.states.values()];
    expect(states.some((state) => (state.overflow?.bikes ?? 0) > 0)).toBe(true);
    expect(states.some((state) => state.status === "CLOSED" || !state.connected)).toBe(true);
    expect(validatedFiles(fixtureFeeds(synthetic))).toBe(24);
    const manifest = schemaOf("3.0", "manifest");
    expect(manifest(JSON.parse(JSON.stringify(manifestOf(synthetic))))).toBe(true);
  });

  it("the validator itself refuses a broken feed (so a pass means something)", () => {
    const contract = feeds[0] as ContractFeeds;
    const file = contract.files.find((f) => f.version === "3.0" && f.feed === "station_status");
    const body = JSON.parse(JSON.stringify(file?.body));
    body.last_updated = 1763626560; // POSIX seconds are v2.3, not v3.0
    body.data.stations[0].is_renting = "yes";
    const validate = schemaOf("3.0", "station_status");
    expect(validate(body)).toBe(false);
    expect(validate.errors?.map((error) => error.instancePath)).toEqual([
      "/last_updated",
      "/data/stations/0/is_renting",
    ]);
  });
});

/** Validates each feed file against its version's official schema; how many were. */
function validatedFiles(feeds: ReturnType<typeof fixtureFeeds>): number {
  let checked = 0;
  for (const contract of feeds) {
    for (const file of contract.files) {
      const validate = schemaOf(file.version, file.feed);
      const body = JSON.parse(JSON.stringify(file.body));
      expect(
        validate(body) ? [] : validate.errors,
        `${contract.contract} v${file.version} ${file.feed}`,
      ).toEqual([]);
      checked++;
    }
  }
  return checked;
}
