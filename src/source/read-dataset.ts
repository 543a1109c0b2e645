// The whole source pipeline: read → schema → rules → Dataset, or every problem found.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { checkStates, checkStaticSource } from "./check.js";
import { assembleDataset, type Dataset, type LiveState, liveStates } from "./dataset.js";
import {
  type Completeness,
  loadStates,
  loadStaticSource,
  STATES_FILE,
  type StaticSource,
} from "./load-source.js";
import { hasErrors, type Problem, warning } from "./problems.js";

export interface ReadResult {
  /** Undefined when any problem is an error. */
  dataset?: Dataset;
  problems: Problem[];
  /** The static part as read, for what a cron refresh keeps beside the tree. */
  staticRead?: StaticRead;
}

export interface StaticRead {
  source: StaticSource;
  complete: Completeness;
  problems: Problem[];
}

/** Reads `dir`, with states from `stateFile` (default: `dir/states.json`, optional there). */
export async function readDataset(dir: string, stateFile?: string): Promise<ReadResult> {
  const read = await readStatic(dir);
  const statesPath = stateFile ?? join(dir, STATES_FILE);
  const problems = [...read.problems];
  let states = new Map<string, LiveState>();
  if (stateFile !== undefined || existsSync(statesPath)) {
    const result = await readStates(read, statesPath);
    problems.push(...result.problems);
    if (result.states) states = result.states;
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
  return { dataset: assembleDataset(read.source, states), problems, staticRead: read };
}

export async function readStatic(dir: string): Promise<StaticRead> {
  const loaded = await loadStaticSource(dir);
  const problems = [...loaded.problems, ...checkStaticSource(loaded.value, loaded.complete)];
  return { source: loaded.value, complete: loaded.complete, problems };
}

/** Reads and checks a states file against the static data; the states only when there is no error. */
export async function readStates(
  read: Pick<StaticRead, "source" | "complete">,
  path: string,
): Promise<{ states?: Map<string, LiveState>; problems: Problem[] }> {
  const loaded = await loadStates(path);
  const readWhole = !hasErrors(loaded.problems);
  const problems = [
    ...loaded.problems,
    ...checkStates(read.source, loaded.value, read.complete, readWhole),
  ];
  if (hasErrors(problems)) return { problems };
  return { states: liveStates(loaded.value), problems };
}
