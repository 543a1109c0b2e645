// Renders every GBFS file of the fixtures with a stand-in URL function, and loads the official schemas.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { memoryOutput } from "../../../../src/commands/output.js";
import { synth } from "../../../../src/commands/synth.js";
import { groupByContract } from "../../../../src/publish/group.js";
import {
  type GbfsRendered,
  renderGbfsStatic,
  renderGbfsStatus,
} from "../../../../src/publish/render/gbfs/contract-feeds.js";
import { renderManifest } from "../../../../src/publish/render/gbfs/discovery.js";
import type {
  GbfsFeedName,
  GbfsFile,
  GbfsUrls,
  GbfsVersion,
} from "../../../../src/publish/render/gbfs/feed.js";
import type { Dataset } from "../../../../src/source/dataset.js";
import { readDataset } from "../../../../src/source/read-dataset.js";
import { ROOT, tempDir } from "../../../helpers.js";

export const STATIC_AT = new Date("2026-11-01T10:00:00Z");
export const GENERATED_AT = new Date("2026-11-20T08:16:00Z");
export const STATIC = { lastUpdated: STATIC_AT, ttl: 3600 };
export const LIVE = { lastUpdated: GENERATED_AT, ttl: 60 };

export const URLS: GbfsUrls = {
  feed: (contract, version, feed) =>
    `https://example.org/contracts/${contract.toLowerCase()}/gbfs/${version === "3.0" ? "v3/" : ""}${feed}.json`,
  manifest: () => "https://example.org/gbfs/manifest.json",
};

export interface ContractFeeds {
  contract: string;
  files: GbfsRendered[];
}

/**
 * A seeded synthetic network (`velodata synth`): two contracts of 300 stations, all three kinds of
 * bike, overflow stands on some stations, some closed or disconnected; another shape than the
 * fixtures'.
 */
export async function synthDataset(): Promise<Dataset> {
  const source = join(await tempDir(), "source");
  await synth({ stations: 600, contracts: 2, minutes: 0, out: source, output: memoryOutput() });
  const { dataset } = await readDataset(source);
  if (!dataset) throw new Error("the synthetic network does not validate");
  return dataset;
}

export function fixtureFeeds(dataset: Dataset, states = dataset.states): ContractFeeds[] {
  const stations = groupByContract(dataset.stations);
  return dataset.contracts.map((contract) => {
    const own = stations.get(contract.name) ?? [];
    return {
      contract: contract.name,
      files: [
        ...renderGbfsStatic(contract, own, STATIC, URLS),
        ...renderGbfsStatus(contract, own, states, LIVE),
      ],
    };
  });
}

export function feedOf(
  feeds: ContractFeeds,
  version: GbfsVersion,
  feed: GbfsFeedName,
): GbfsFile<unknown> {
  const found = feeds.files.find((file) => file.version === version && file.feed === feed);
  if (!found) throw new Error(`no ${version} ${feed} for ${feeds.contract}`);
  // Through JSON, as a consumer reads it: undefined fields vanish, key order is what is sent.
  return JSON.parse(JSON.stringify(found.body)) as GbfsFile<unknown>;
}

export const manifestOf = (dataset: Dataset) => renderManifest(dataset.contracts, STATIC, URLS);

// The official schemas (src/model/gbfs-schemas, see its SOURCE.md), compiled as the official
// validator does: strict mode off, formats on.
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
const compiled = new Map<string, ValidateFunction>();

export function schemaOf(version: GbfsVersion, feed: GbfsFeedName | "manifest"): ValidateFunction {
  const key = `v${version}/${feed}.json`;
  let validate = compiled.get(key);
  if (!validate) {
    const path = join(ROOT, "src/model/gbfs-schemas", key);
    validate = ajv.compile(JSON.parse(readFileSync(path, "utf8")));
    compiled.set(key, validate);
  }
  return validate;
}
