// `velodata validate`: every check of a build, and nothing written.
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
    `${options.source} is valid: ${dataset.contracts.length} contracts, ${dataset.stations.length} stations, ` +
      `${dataset.states.size} states, ${dataset.parkings.length} parkings` +
      (warnings > 0 ? ` (${warnings} warning${warnings === 1 ? "" : "s"})` : ""),
  );
}
