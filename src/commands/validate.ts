// `velodata validate`: every check of a build, and nothing written.
import { readDataset } from "../source/read-dataset.js";
import { type Output, reportProblems, terminalOutput } from "./output.js";

export interface ValidateOptions {
  source: string;
  state?: string;
  output?: Output;
}

export async function validate(options: ValidateOptions): Promise<void> {
  const output = options.output ?? terminalOutput();
  const { dataset, problems } = await readDataset(options.source, options.state);
  reportProblems(problems, output);
  if (!dataset) throw new Error("readDataset returned no dataset and no error");
  const warnings = problems.length;
  output.info(
    `${options.source} is valid: ${dataset.contracts.length} contracts, ${dataset.stations.length} stations, ` +
      `${dataset.states.size} states, ${dataset.parkings.length} parkings` +
      (warnings > 0 ? ` (${warnings} warning${warnings === 1 ? "" : "s"})` : ""),
  );
}
