// The fixtures' tree as `velodata build` writes it, portal and GBFS feeds included.
import { PortalSettings } from "../../../../src/model/portal.js";
import { type PublishOptions, publish } from "../../../../src/publish/publish.js";
import { type Dataset, stationKey } from "../../../../src/source/dataset.js";
import { writeTree } from "../../../../src/tree/write-tree.js";
import { fixtureDataset, GENERATED_AT } from "../../publish-helpers.js";

interface TreeOptions extends Pick<PublishOptions, "dataUpdatedAt" | "baseUrl"> {
  /** The portal's words (portal.json, read as the source's reader reads it); default the fixtures'. */
  portal?: unknown;
  /** When the states were known (a states file's time): every contract's feed is dated by it. */
  statesAt?: Date;
  /** Stations whose last report is moved to another time (`lastUpdate`, UTC). */
  reports?: { contract: string; number: number; lastUpdate: string }[];
}

/** Writes the fixtures' tree; returns the dataset used. `dataUpdatedAt` dates its static data. */
export async function writePortalTree(out: string, options: TreeOptions = {}): Promise<Dataset> {
  // Without the states file's time, each contract's station_status is dated by its own newest
  // report: the page is shown feeds of different times, as a tree's may be when one is late.
  const { statesAt: _, ...fixtures } = await fixtureDataset();
  const { statesAt, reports = [], portal, ...publishOptions } = options;
  const states = new Map(fixtures.states);
  for (const { contract, number, lastUpdate } of reports) {
    const key = stationKey(contract, number);
    const state = states.get(key);
    if (!state) throw new Error(`no state for ${key} in the fixtures`);
    states.set(key, { ...state, lastUpdate });
  }
  const dataset = {
    ...fixtures,
    states,
    ...(statesAt && { statesAt }),
    ...(portal !== undefined && { portal: PortalSettings.parse(portal) }),
  };
  const { release } = await publish(dataset, { generatedAt: GENERATED_AT, ...publishOptions });
  await writeTree(release, out);
  return dataset;
}
