// Where a refresh gets new station states: a state file read again each time, or the simulator.
import type { Dataset, LiveState } from "../source/dataset.js";
import type { Problem } from "../source/problems.js";
import { readStates, type StaticRead } from "../source/read-dataset.js";
import { type Random, simulate } from "./simulator.js";

export interface StateSource {
  /** For log lines: "states.json", "the simulator". */
  readonly name: string;
  /** New states, or the problems that prevent using them (the caller keeps the last good ones). */
  read(
    current: Dataset,
    now: Date,
  ): Promise<{ states?: Map<string, LiveState>; problems: Problem[] }>;
}

export function stateFile(path: string, staticRead: StaticRead): StateSource {
  return {
    name: path,
    async read() {
      try {
        return await readStates(staticRead, path);
      } catch (cause) {
        // A missing file is a UserError from loadStates; report it like any problem of the file.
        return {
          problems: [{ severity: "error", at: { file: path }, message: (cause as Error).message }],
        };
      }
    },
  };
}

export function simulator(random: Random, seconds: number): StateSource {
  return {
    name: "the simulator",
    async read(current, now) {
      return {
        states: simulate(current.stations, current.states, now, random, seconds),
        problems: [],
      };
    },
  };
}
