// `velodata validate`: every check of a build, and nothing written.

import { join } from "node:path";
import { counted } from "../plural.js";
import { STATES_FILE } from "../source/states-file.js";
import { EVERY_KIND, EVERY_PROBLEM, type Output, terminalOutput } from "./output.js";
import { readValidDataset } from "./read-source.js";
import { type StaleLimits, warnIfDatasetStalled } from "./stalled-feed.js";

export interface ValidateOptions extends StaleLimits {
  source: string;
  state?: string;
  /** Every problem on a line of its own, where a kind's first few and a count of the rest do. */
  all?: boolean;
  output?: Output;
  /** The time stale states are judged at; a parameter so that tests control it. */
  now?: Date;
}

export async function validate(options: ValidateOptions): Promise<void> {
  const output = options.output ?? terminalOutput();
  const { dataset, warnings } = await readValidDataset(
    options.source,
    options.state,
    output,
    null, // it publishes nothing, valid or not
    options.all ? EVERY_PROBLEM : EVERY_KIND, // the other commands send here, with --all, for the whole list
  );
  // A stuck exporter or a clock off by hours gives a valid file: said, as refresh and serve would.
  const statesFile = options.state ?? join(options.source, STATES_FILE);
  const stalled = warnIfDatasetStalled(
    dataset,
    statesFile,
    options,
    options.now ?? new Date(),
    output,
    "validate",
  );
  const said = warnings + (stalled ? 1 : 0);
  output.info(
    `${options.source} is valid: ${counted(dataset.contracts.length, "contract")}, ${counted(dataset.stations.length, "station")}, ` +
      `${counted(dataset.states.size, "state")}, ${counted(dataset.parkings.length, "parking")}` +
      (said > 0 ? ` (${counted(said, "warning")})` : ""),
  );
}
