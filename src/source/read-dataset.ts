// The whole source pipeline: read → schema → rules → Dataset, or every problem found.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { checkStates, checkStaticSource } from "./check.js";
import { assembleDataset, type Dataset } from "./dataset.js";
import { loadStates, loadStaticSource, STATES_FILE } from "./load-source.js";
import { hasErrors, type Problem, warning } from "./problems.js";

export interface ReadResult {
  /** Undefined when any problem is an error. */
  dataset?: Dataset;
  problems: Problem[];
}

/** Reads `dir`, with states from `stateFile` (default: `dir/states.json`, optional there). */
export async function readDataset(dir: string, stateFile?: string): Promise<ReadResult> {
  const loaded = await loadStaticSource(dir);
  const problems = [...loaded.problems];
  problems.push(...checkStaticSource(loaded.value, loaded.complete));

  const statesPath = stateFile ?? join(dir, STATES_FILE);
  let states: Awaited<ReturnType<typeof loadStates>>["value"] = [];
  if (stateFile !== undefined || existsSync(statesPath)) {
    const read = await loadStates(statesPath);
    states = read.value;
    problems.push(...read.problems);
    problems.push(...checkStates(loaded.value, states, loaded.complete));
  } else {
    problems.push(
      warning(
        { file: statesPath },
        undefined,
        "no state file: every station is published as CLOSED and disconnected",
      ),
    );
  }
  if (hasErrors(problems)) return { problems };
  return { dataset: assembleDataset(loaded.value, states), problems };
}
