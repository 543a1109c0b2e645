// Finds and reads the source files of a source folder into located, schema-checked records.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { setImmediate } from "node:timers/promises";
import type { z } from "zod";
import { UserError } from "../errors.js";
import { Contract } from "../model/contract.js";
import { Parking } from "../model/parking.js";
import type { PortalSettings } from "../model/portal.js";
import { Station } from "../model/station.js";
import { StationState } from "../model/station-state.js";
import { withFields } from "../with-fields.js";
import { givesKeyTwice } from "./duplicate-keys.js";
import { isPresent } from "./file-present.js";
import { type KnownStates, knownTexts, sameJson } from "./known-states.js";
import { loadPortalSettings } from "./load-portal.js";
import { jsonNumberTexts } from "./number-texts.js";
import { parseRecords, type RejectedRecord } from "./parse-records.js";
import { error, hasErrors, type Problem, type Sourced, warning } from "./problems.js";
import { readCsvRecords } from "./read-csv.js";
import { readJsonRecords } from "./read-json.js";
import { readSourceText } from "./read-text.js";
import { zeroOverflowAsNone } from "./rules/overflow.js";
import {
  CONTRACT_RULES,
  PARKING_RULES,
  refusedRecordsChecked,
  STATION_RULES,
} from "./rules/own-fields.js";
import { nameKey } from "./rules/records.js";
import { stationKey } from "./rules/states.js";
import { type SalvagedRecord, salvagedRecords } from "./salvaged-records.js";
import { checkSourceFolder } from "./source-folder.js";
import { splitStatesText } from "./states-text.js";

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

/**
 * The keys of a file's records that failed their schema, as the rules across records compare them
 * (a contract's name in lower case, a station's stationKey); "all" when the file, or the key of one
 * of those records, could not be read.
 */
export type UnreadKeys = ReadonlySet<string> | "all";

/**
 * What of the files other files refer to was not read: a rule that looks records up there leaves
 * alone the records referring to it, so that one bad contract does not turn into "unknown
 * contract" on each of its stations, nor one bad station into "no station" on its state.
 */
export interface Unread {
  contracts: UnreadKeys;
  stations: UnreadKeys;
}

export const NOTHING_UNREAD: Unread = { contracts: new Set(), stations: new Set() };

export const allRead = ({ contracts, stations }: Unread): boolean =>
  contracts !== "all" && contracts.size === 0 && stations !== "all" && stations.size === 0;

/**
 * The static records their schema refused, as far as they read (salvagedRecords): the rules of a
 * record's own fields run over them, and those of positions too (checkStaticSource).
 */
export interface RefusedRecords {
  stations: readonly SalvagedRecord<Station>[];
  parkings: readonly SalvagedRecord<Parking>[];
}

export const NONE_REFUSED: RefusedRecords = { stations: [], parkings: [] };

export async function loadStaticSource(
  dir: string,
): Promise<Loaded<StaticSource> & { unread: Unread; notes: string[]; refused: RefusedRecords }> {
  checkSourceFolder(dir);
  // Every required file missing is said at once: an empty folder, or one of other data, is one mistake.
  const missing = (
    await Promise.all([missingFile(dir, "contracts", false), missingFile(dir, "stations", true)])
  ).filter((said) => said !== null);
  if (missing.length === 1) throw new UserError(`missing source file: ${missing[0]}`);
  if (missing.length > 1) throw new UserError("missing source files:", missing);
  const contracts = await loadResource(dir, "contracts", Contract, { csv: false, required: true });
  const stations = await loadResource(dir, "stations", Station, { csv: true, required: true });
  // Normalised before the rules and the states see them: 0 overflow stands are none everywhere.
  const overflow = zeroOverflowAsNone(stations.value);
  const refusedOverflow = zeroOverflowAsNone(stations.salvaged);
  const parkings = await loadResource(dir, "parkings", Parking, { csv: true, required: false });
  const portal = await loadPortalSettings(dir);
  return {
    value: {
      contracts: contracts.value,
      stations: overflow.stations,
      parkings: parkings.value,
      portal: portal.value,
    },
    problems: [
      ...contracts.problems,
      ...refusedRecordsChecked(CONTRACT_RULES, contracts.salvaged),
      ...stations.problems,
      ...overflow.problems,
      ...refusedOverflow.problems,
      ...refusedRecordsChecked(STATION_RULES, refusedOverflow.stations),
      ...parkings.problems,
      ...refusedRecordsChecked(PARKING_RULES, parkings.salvaged),
      ...(parkings.file === null ? noParkingsFile(dir, contracts.value) : []),
      ...portal.problems,
    ],
    unread: {
      contracts: unreadKeys(contracts, contractKeyOf),
      stations: unreadKeys(stations, stationKeyOf),
    },
    notes: portal.note === undefined ? [] : [portal.note],
    refused: { stations: refusedOverflow.stations, parkings: parkings.salvaged },
  };
}

function unreadKeys(
  resource: { readWhole: boolean; rejected: readonly RejectedRecord[] },
  keyOf: (raw: Record<string, unknown>) => string | undefined,
): UnreadKeys {
  if (!resource.readWhole) return "all";
  const keys = new Set<string>();
  for (const { raw } of resource.rejected) {
    const key =
      typeof raw === "object" && raw !== null ? keyOf(raw as Record<string, unknown>) : undefined;
    if (key === undefined) return "all"; // any record could have been meant for it
    keys.add(key);
  }
  return keys;
}

const contractKeyOf = ({ name }: Record<string, unknown>): string | undefined =>
  typeof name === "string" ? nameKey(name) : undefined;

/**
 * A number written as text ("55" in JSON) still says which station was meant; one written any
 * other way does not: a spreadsheet's "1.23457E+14" reads as another number than the one its
 * states give, and so may "1e1" or "-30". A contract padded with spaces (a fixed-width export's
 * " dublin") is the one it pads; an empty one says none.
 */
export function stationKeyOf({ contract, number }: Record<string, unknown>): string | undefined {
  const meant = typeof number === "string" && PLAIN_NUMBER.test(number) ? Number(number) : number;
  if (typeof contract !== "string" || typeof meant !== "number") return undefined;
  const named = contract.trim();
  if (named === "" || !Number.isSafeInteger(meant) || meant < 0) return undefined;
  return stationKey(named, meant);
}

const PLAIN_NUMBER = /^\s*\d+\s*$/;

/**
 * The parkings file is optional, so a misspelt one (`parking.json`) would publish empty parking
 * answers for the contracts that offer them, silently: said once.
 */
function noParkingsFile(dir: string, contracts: readonly Sourced<Contract>[]): Problem[] {
  const offering = contracts.filter(({ value }) => value.parkingApi).map(({ value }) => value.name);
  if (offering.length === 0) return [];
  const shown = offering.slice(0, 5).join(", ") + (offering.length > 5 ? ", …" : "");
  return [
    warning(
      { file: join(dir, "parkings.json") },
      undefined,
      `not found (nor parkings.csv), yet ${offering.length === 1 ? "1 contract offers" : `${offering.length} contracts offer`} the parking API (${shown}): their parking answers are empty lists; check the file's name${lookalike(dir, "parkings", true)}`,
    ),
  ];
}

export interface LoadedStates extends Loaded<Sourced<StationState>[]> {
  /** Every record of the file as read, in its order. */
  raw: readonly unknown[];
  /** For each record of `value`: its position in `known` when equal to it there, else -1 (parsed anew). */
  knownAt: readonly number[];
  /** The records' texts, when the file was split into them against `known`'s. */
  texts?: readonly string[];
  /** The file's text, when the records were parsed from it, whole or split. */
  text?: string;
  /** Of the records their schema refused, the fields that pass, for the rules of a record's own fields. */
  salvaged: readonly SalvagedRecord<StationState>[];
}

/**
 * Reads a states file (`{ "states": [...] }`); `file` is the name used in messages. A record equal
 * to the one at the same position in `known` (accepted last time) is taken as it was, unparsed:
 * recognised by its text when both files hold one record per line or so (see splitStatesText), by
 * its value otherwise. `reuse`: read into the buffer the last such read used, kept for the next
 * (a server's, every minute); a process that reads it once lets its bytes go (a million stations'
 * states are ~250 MB, held to the end of a build when kept).
 */
export async function loadStates(
  path: string,
  file = path,
  known?: KnownStates,
  reuse = false,
): Promise<LoadedStates> {
  if (!isPresent(path)) throw new UserError(`state file not found: ${path}`);
  const read = await readSourceText(path, file, reuse);
  if ("problem" in read)
    return { value: [], problems: [read.problem], raw: [], knownAt: [], salvaged: [] };
  const written = jsonNumberTexts(read.text, "states");
  const previous = known && knownTexts(known);
  const split = previous ? splitStatesText(read.text, previous) : undefined;
  const whole = split ? undefined : statesList(read.text);
  // A file that is not JSON: read again by the reader that says where it is wrong.
  const located = split || whole ? undefined : await readJsonRecords(path, file, "states");
  const raw = split?.raw ?? whole ?? located?.records.map((record) => record.raw) ?? [];
  const value: Sourced<StationState>[] = [];
  const problems = [...(located?.problems ?? [])];
  const knownAt: number[] = [];
  const salvaged: SalvagedRecord<StationState>[] = [];
  // The text split, the records compared and parsed: in stretches, letting a server answer between.
  await setImmediate();
  for (let index = 0; index < raw.length; index++) {
    if (index > 0 && index % RECORDS_PER_STRETCH === 0) await setImmediate();
    const record = raw[index];
    const before = known?.records[index];
    // From the split, undefined: the same text as the known record's.
    const same = split && record === undefined;
    if (same) raw[index] = known?.raw[index];
    if (before && (same || sameJson(known.raw[index], record))) {
      // Same record, same place: only the file name may differ (else the same object, kept:
      // 100,000 records a minute not copied).
      value.push(
        before.at.file === file
          ? before
          : { value: before.value, at: withFields(before.at, { file }) },
      );
      knownAt.push(index);
      continue;
    }
    const parsed = parseRecords(StationState, [{ raw: record, at: { file, index }, written }]);
    problems.push(...parsed.problems);
    if (parsed.rejected.length > 0)
      salvaged.push(...salvagedRecords(StationState, parsed.rejected));
    for (const one of parsed.records) {
      value.push(one);
      knownAt.push(-1);
    }
  }
  return {
    value,
    problems,
    raw,
    knownAt,
    salvaged,
    ...(split ? { texts: split.texts } : {}),
    ...(split || whole ? { text: read.text } : {}),
  };
}

const RECORDS_PER_STRETCH = 25_000;

/**
 * The records of a states file parsed whole, or undefined when it is not `{"states": [...]}` JSON
 * or gives a key twice (JSON.parse keeps the last, silently; readJsonRecords says where).
 */
function statesList(text: string): unknown[] | undefined {
  try {
    const document: unknown = JSON.parse(text);
    const list = (document as Record<string, unknown> | null)?.states;
    return Array.isArray(list) && !givesKeyTwice(text, document) ? list : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A file of the folder that was likely meant (`Stations.CSV`, `stations (1).csv`, as Windows and
 * browsers name them, `parking.json`, `stations.csv.txt` with Windows' extensions hidden): said,
 * with the name to give it, since file names are read exactly. Only when something is missing.
 */
export function lookalike(dir: string, key: string, csv: boolean): string {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return "";
  }
  // The name in another case, in the singular, or a copy's (`stations (1).csv`, `stations -
  // Copy.csv`): not a backup such as `stations_old.json`, which is no one's to rename.
  const copyOf = new RegExp(
    `^${key}?(?: ?\\(\\d+\\)| - copy| copy)?\\.(?:json${csv ? "|csv" : ""})(?:\\.txt)?$`,
    "i",
  );
  const meant = names.find((name) => name !== `${key}.json` && copyOf.test(name));
  if (meant === undefined) return "";
  const extension = /\.csv(?:\.txt)?$/i.test(meant) ? "csv" : "json";
  return `; found ${JSON.stringify(meant)}: rename it ${key}.${extension} (file names are read exactly, in lower case)`;
}

/** A required resource's file as expected (and a lookalike found), or null when it is there. */
async function missingFile(dir: string, key: string, csv: boolean): Promise<string | null> {
  const jsonName = join(dir, `${key}.json`);
  const csvName = join(dir, `${key}.csv`);
  if (isPresent(jsonName) || (csv && isPresent(csvName))) return null;
  return `${csv ? `${jsonName} or ${csvName}` : jsonName}${lookalike(dir, key, csv)}`;
}

async function loadResource<T>(
  dir: string,
  key: string,
  schema: z.ZodObject & z.ZodType<T>,
  options: { csv: boolean; required: boolean },
): Promise<Loaded<Sourced<T>[]> & Parsed<T>> {
  const jsonName = join(dir, `${key}.json`);
  const csvName = join(dir, `${key}.csv`);
  const hasJson = isPresent(jsonName);
  const hasCsv = options.csv && isPresent(csvName);
  if (hasJson && hasCsv) {
    throw new UserError(`both ${jsonName} and ${csvName} exist: keep one of them`);
  }
  if (!hasJson && !hasCsv) {
    if (!options.required)
      return { value: [], problems: [], file: null, readWhole: true, rejected: [], salvaged: [] };
    throw new UserError(`missing source file: ${await missingFile(dir, key, options.csv)}`);
  }
  const read = hasJson
    ? await readJsonRecords(jsonName, jsonName, key)
    : await readCsvRecords(csvName, csvName, schema);
  const file = hasJson ? jsonName : csvName;
  // A required resource with no record would publish an empty network as valid: an export gone wrong.
  if (options.required && read.records.length === 0 && !hasErrors(read.problems)) {
    const wrote = hasJson ? "an empty list" : "only its header";
    return {
      value: [],
      problems: [
        ...read.problems,
        error({ file }, undefined, `has no ${key}: an export that wrote ${wrote}?`),
      ],
      file,
      readWhole: false,
      rejected: [],
      salvaged: [],
    };
  }
  const parsed = parseRecords(schema, read.records);
  return {
    value: parsed.records,
    problems: [...read.problems, ...parsed.problems],
    file,
    readWhole: !hasErrors(read.problems),
    rejected: parsed.rejected,
    salvaged: salvagedRecords(schema, parsed.rejected),
  };
}

/** How a source file was read: its records that failed their schema are in `rejected`. */
interface Parsed<T> {
  file: string | null;
  /** False when the file, or a row of it, could not be read into records. */
  readWhole: boolean;
  rejected: RejectedRecord[];
  /** Of the rejected records, the fields that pass, for the rules of a record's own fields. */
  salvaged: SalvagedRecord<T>[];
}
