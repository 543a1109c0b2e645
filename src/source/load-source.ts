// Finds and reads the source files of a source folder into located, schema-checked records.
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import type { z } from "zod";
import { UserError } from "../errors.js";
import { Contract } from "../model/contract.js";
import { Parking } from "../model/parking.js";
import type { PortalSettings } from "../model/portal.js";
import { Station } from "../model/station.js";
import { StationState } from "../model/station-state.js";
import type { KnownStates } from "./known-states.js";
import { sameJson } from "./known-states.js";
import { loadPortalSettings } from "./load-portal.js";
import { parseRecords } from "./parse-records.js";
import { hasErrors, type Problem, type Sourced } from "./problems.js";
import { readCsvRecords } from "./read-csv.js";
import { readJsonRecords } from "./read-json.js";

export interface StaticSource {
  contracts: Sourced<Contract>[];
  stations: Sourced<Station>[];
  parkings: Sourced<Parking>[];
  portal: PortalSettings;
}

export interface Loaded<T> {
  value: T;
  problems: Problem[];
}

/** Which resources were read without error: rules that refer to one need all of it. */
export interface Completeness {
  contracts: boolean;
  stations: boolean;
}

export const STATES_FILE = "states.json";

export async function loadStaticSource(
  dir: string,
): Promise<Loaded<StaticSource> & { complete: Completeness }> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new UserError(`source folder not found: ${dir}`);
  }
  const contracts = await loadResource(dir, "contracts", Contract, { csv: false, required: true });
  const stations = await loadResource(dir, "stations", Station, { csv: true, required: true });
  const parkings = await loadResource(dir, "parkings", Parking, { csv: true, required: false });
  const portal = await loadPortalSettings(dir);
  return {
    value: {
      contracts: contracts.value,
      stations: stations.value,
      parkings: parkings.value,
      portal: portal.value,
    },
    problems: [
      ...contracts.problems,
      ...stations.problems,
      ...parkings.problems,
      ...portal.problems,
    ],
    complete: {
      contracts: !hasErrors(contracts.problems),
      stations: !hasErrors(stations.problems),
    },
  };
}

export interface LoadedStates extends Loaded<Sourced<StationState>[]> {
  /** Every record of the file as read, in its order. */
  raw: readonly unknown[];
  /** For each record of `value`: its position in `known` when equal to it there, else -1 (parsed anew). */
  knownAt: readonly number[];
}

/**
 * Reads a states file (`{ "states": [...] }`); `file` is the name used in messages. A record equal
 * to the one at the same position in `known` (accepted last time) is taken as it was, unparsed.
 */
export async function loadStates(
  path: string,
  file = path,
  known?: KnownStates,
): Promise<LoadedStates> {
  if (!existsSync(path)) throw new UserError(`state file not found: ${path}`);
  const read = await readJsonRecords(path, file, "states");
  const value: Sourced<StationState>[] = [];
  const problems = [...read.problems];
  const knownAt: number[] = [];
  const raw = read.records.map((record) => record.raw);
  read.records.forEach((record, index) => {
    const before = known?.records[index];
    if (before && sameJson(known.raw[index], record.raw)) {
      // Same record, same place: only the file name may differ.
      const at = before.at.file === file ? before.at : { ...before.at, file };
      value.push({ value: before.value, at });
      knownAt.push(index);
      return;
    }
    const parsed = parseRecords(StationState, [record]);
    problems.push(...parsed.problems);
    for (const one of parsed.records) {
      value.push(one);
      knownAt.push(-1);
    }
  });
  return { value, problems, raw, knownAt };
}

async function loadResource<T>(
  dir: string,
  key: string,
  schema: z.ZodObject & z.ZodType<T>,
  options: { csv: boolean; required: boolean },
): Promise<Loaded<Sourced<T>[]>> {
  const jsonName = join(dir, `${key}.json`);
  const csvName = join(dir, `${key}.csv`);
  const hasJson = existsSync(jsonName);
  const hasCsv = options.csv && existsSync(csvName);
  if (hasJson && hasCsv) {
    throw new UserError(`both ${jsonName} and ${csvName} exist: keep one of them`);
  }
  if (!hasJson && !hasCsv) {
    if (!options.required) return { value: [], problems: [] };
    const expected = options.csv ? `${jsonName} or ${csvName}` : jsonName;
    throw new UserError(`missing source file: ${expected}`);
  }
  const read = hasJson
    ? await readJsonRecords(jsonName, jsonName, key)
    : await readCsvRecords(csvName, csvName, schema);
  const parsed = parseRecords(schema, read.records);
  return { value: parsed.records, problems: [...read.problems, ...parsed.problems] };
}
