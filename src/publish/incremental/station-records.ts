// The static station records a cron refresh keeps, one JSON text per station, parsed only for the
// stations it renders again: every minute it needs each station's contract, and ~10% of the records.
import type { Contract } from "../../model/contract.js";
import type { Station } from "../../model/station.js";
import { placedIn, type Sourced } from "../../source/problems.js";
import { contractKey } from "../../source/rules/records.js";

export interface StationRecords {
  readonly count: number;
  /** The position of the station's contract among the kept contracts. */
  contractOf(index: number): number;
  /** The record as the source had it, and where it was read; undefined past the end. */
  record(index: number): Sourced<Station> | undefined;
  /** The station's number, its record not kept for it (a check of every station reads them all). */
  numberOf(index: number): number | undefined;
}

/** The records as stored: each station's contract, and its record as one line of JSON text. */
export interface StoredRecords {
  contracts: number[];
  /** Made as they are read (a million strings are not kept alive at once). */
  lines: Iterable<string>;
}

/** Null when a station names a contract that is not among `contracts` (a build refuses it). */
export function storeRecords(records: StationRecords): StoredRecords | null {
  const contracts: number[] = [];
  for (let index = 0; index < records.count; index++) {
    const contract = records.contractOf(index);
    if (contract < 0 || !records.record(index)) return null;
    contracts.push(contract);
  }
  return { contracts, lines: linesOf(records) };
}

function* linesOf(records: StationRecords): Generator<string> {
  for (let index = 0; index < records.count; index++) {
    const record = records.record(index) as Sourced<Station>;
    // JSON text has no raw line break: one line each.
    yield JSON.stringify([record.value, record.at]);
  }
}

/**
 * The stored records, each parsed when first asked for (`line` gives a station's text), placed in
 * the source folder `folder`.
 */
export function storedRecords(
  contracts: readonly number[],
  line: (index: number) => string | undefined,
  folder: string,
): StationRecords {
  const parsed = new Map<number, Sourced<Station>>();
  const read = (index: number): Sourced<Station> | undefined => {
    const text = line(index);
    if (text === undefined) return undefined;
    const [value, at] = JSON.parse(text) as [Station, Sourced<Station>["at"]];
    return { value, at: placedIn(folder, at) };
  };
  return {
    count: contracts.length,
    contractOf: (index) => contracts[index] ?? -1,
    record(index) {
      let record = parsed.get(index);
      if (record) return record;
      record = read(index);
      if (record) parsed.set(index, record);
      return record;
    },
    numberOf: (index) => (parsed.get(index) ?? read(index))?.value.number,
  };
}

/** Records already in memory (a build's or full refresh's, to be stored). */
export function recordsOfList(
  stations: readonly Sourced<Station>[],
  contracts: readonly Sourced<Contract>[],
): StationRecords {
  const positions = new Map(contracts.map(({ value }, at) => [contractKey(value.name), at]));
  return {
    count: stations.length,
    contractOf: (index) => {
      const station = stations[index];
      return station ? (positions.get(contractKey(station.value.contract)) ?? -1) : -1;
    },
    record: (index) => stations[index],
    numberOf: (index) => stations[index]?.value.number,
  };
}

/** Every record, in order: what a whole read of the states file checks them against. */
export function allRecords(records: StationRecords): Sourced<Station>[] {
  return Array.from({ length: records.count }, (_, index) => {
    const record = records.record(index);
    if (!record) throw new Error(`bug: no kept station record ${index}`);
    return record;
  });
}
