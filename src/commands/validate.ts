// `velodata validate`: every check of a build, and nothing written.

import { counted } from "../plural.js";
import { EVERY_PROBLEM, type Output, terminalOutput } from "./output.js";
import { readValidDataset } from "./read-source.js";

export interface ValidateOptions {
  source: string;
  state?: string;
  output?: Output;
}

export async function validate(options: ValidateOptions): Promise<void> {
  const output = options.output ?? terminalOutput();
  const { dataset, warnings } = await readValidDataset(
    options.source,
    options.state,
    output,
    null, // it publishes nothing, valid or not
    EVERY_PROBLEM, // the other commands send here for the whole list
  );
  output.info(
    `${options.source} is valid: ${counted(dataset.contracts.length, "contract")}, ${counted(dataset.stations.length, "station")}, ` +
      `${counted(dataset.states.size, "state")}, ${counted(dataset.parkings.length, "parking")}` +
      (warnings > 0 ? ` (${counted(warnings, "warning")})` : ""),
  );
}
