// The fixtures' tree as `velodata build` writes it, portal and GBFS feeds included.
import { type PublishOptions, publish } from "../../../../src/publish/publish.js";
import type { Dataset } from "../../../../src/source/dataset.js";
import { writeTree } from "../../../../src/tree/write-tree.js";
import { fixtureDataset, GENERATED_AT } from "../../publish-helpers.js";

/** Writes the fixtures' tree; returns the dataset used. `dataUpdatedAt` dates its static data. */
export async function writePortalTree(
  out: string,
  options: Pick<PublishOptions, "dataUpdatedAt"> = {},
): Promise<Dataset> {
  // Without the states file's time, each contract's station_status is dated by its own newest
  // report: the page is shown feeds of different times, as a tree's may be when one is late.
  const { statesAt: _, ...dataset } = await fixtureDataset();
  const { release } = await publish(dataset, { generatedAt: GENERATED_AT, ...options });
  await writeTree(release, out);
  return dataset;
}
