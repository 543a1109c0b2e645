// Rules on station states: each belongs to a known station, once, with coherent counts and time.
import { excerpt } from "../../errors.js";
import { instantSince1970 } from "../../model/since-1970.js";
import type { Station } from "../../model/station.js";
import type { StandsState, StationState } from "../../model/station-state.js";
import { oncePerObject } from "../../once-per-object.js";
import { publishedTime } from "../../published-time.js";
import { isNoValue } from "../no-value.js";
import { error, type Problem, type Sourced, warning } from "../problems.js";
import { CLOCKS_APART_MS, GBFS_EARLIEST_MS } from "../source-time.js";
import { localOffset } from "./local-offset.js";
import { contractKey, placeOf } from "./records.js";

export const stationKey = (contract: string, number: number): string =>
  `${contractKey(contract)}/${number}`;

// Kept per list of stations: a server checks every minute's states against the same static data.
// A number given twice in a contract is an error of its own (stationNumbersUniqueInContract): the
// state is checked against the first station only, not again against the second's capacity.
const stationIndex = oncePerObject(
  (stations: readonly Sourced<Station>[]): ReadonlyMap<string, Sourced<Station>> => {
    const keys = stationKeys(stations);
    const index = new Map<string, Sourced<Station>>();
    stations.forEach((station, position) => {
      const key = keys[position] as string;
      if (!index.has(key)) index.set(key, station);
    });
    return index;
  },
);

// Each station's key, kept like the index: the server's stationsHaveStates runs every minute.
const stationKeys = oncePerObject((stations: readonly Sourced<Station>[]): readonly string[] =>
  stations.map(({ value }) => stationKey(value.contract, value.number)),
);

/** Each state's stationKey, in order: the rules below take them made once for all. */
export const stateKeys = (states: readonly Sourced<StationState>[]): string[] =>
  states.map(({ value }) => stationKey(value.contract, value.number));

/** A state for a station that is not in the static data cannot be published. */
export function statesForKnownStations(
  stations: readonly Sourced<Station>[],
  states: readonly Sourced<StationState>[],
  keys: readonly string[] = stateKeys(states),
): Problem[] {
  const index = stationIndex(stations);
  const unknown = states.filter((_, position) => !index.has(keys[position] as string));
  if (unknown.length === 0) return []; // every minute of a server: no set of contracts made
  const contracts = new Set(stations.map(({ value }) => contractKey(value.contract)));
  return unknown.map((state) =>
    // A contract no station has: its name is what is wrong, not the number.
    contracts.has(contractKey(state.value.contract))
      ? error(
          state.at,
          "number",
          `no station ${state.value.number} in contract "${excerpt(state.value.contract)}"`,
        )
      : error(
          state.at,
          "contract",
          contracts.has(contractKey(state.value.contract.trim()))
            ? `no station has contract "${excerpt(state.value.contract)}": spaces around the name (a fixed-width export's padding?); write "${state.value.contract.trim()}"`
            : `no station has contract "${excerpt(state.value.contract)}": a misspelt name, or a contract not in contracts.json?`,
        ),
  );
}

export function oneStatePerStation(
  states: readonly Sourced<StationState>[],
  keys: readonly string[] = stateKeys(states),
): Problem[] {
  const seen = new Map<string, Sourced<StationState>>();
  const problems: Problem[] = [];
  for (let position = 0; position < states.length; position++) {
    const state = states[position] as Sourced<StationState>;
    const key = keys[position] as string;
    const first = seen.get(key);
    if (first)
      problems.push(
        error(state.at, "number", `a second state for this station (first ${placeOf(first)})`),
      );
    else seen.set(key, state);
  }
  return problems;
}

/** stationsHaveStates's warning (a refresh that keeps the station's last state says so instead). */
export const NO_STATE = "no state: published as CLOSED and disconnected, with lastUpdate null";

/**
 * A station without a state is still published (it exists), as CLOSED and disconnected with no
 * bikes and no free stands and `lastUpdate` null (the real service was seen showing one OPEN with
 * zeros: CLOSED sends no rider there). It is worth a warning, not a failed build.
 */
export function stationsHaveStates(
  stations: readonly Sourced<Station>[],
  states: readonly Sourced<StationState>[],
  keys: Iterable<string> = stateKeys(states),
): Problem[] {
  const reported = new Set(keys);
  const own = stationKeys(stations);
  return stations
    .filter((_, position) => !reported.has(own[position] as string))
    .map((station) => warning(station.at, undefined, NO_STATE));
}

/** bikes = mechanical + electrical, electrical = internal + removable, bikes + stands ≤ capacity. */
export function availabilitiesConsistent(
  stations: readonly Sourced<Station>[],
  states: readonly Sourced<StationState>[],
  keys: readonly string[] = stateKeys(states),
): Problem[] {
  const index = stationIndex(stations);
  const problems: Problem[] = [];
  for (let position = 0; position < states.length; position++) {
    const state = states[position] as Sourced<StationState>;
    const station = index.get(keys[position] as string)?.value;
    if (!station) continue; // reported by statesForKnownStations
    const check = (field: string, stands: StandsState, capacity: number) => {
      for (const message of standsProblems(stands, capacity))
        problems.push(error(state.at, field, message));
    };
    check("mainStands", state.value.mainStands, station.capacity);
    const overflow = state.value.overflowStands;
    // A feed that writes 0 for none, as the station data may (zeroOverflowAsNone): read as none.
    if (overflow && station.overflowCapacity === null && !isEmptyGroup(overflow)) {
      problems.push(
        error(
          state.at,
          "overflowStands",
          "the station has no overflow stands (its overflowCapacity is empty or 0 in the station data): give null, or fill in its overflowCapacity",
        ),
      );
    } else if (overflow && station.overflowCapacity !== null) {
      check("overflowStands", overflow, station.overflowCapacity);
    }
  }
  return problems;
}

/** A group of stands with no bike and no free stand: what a feed writes for a group it has not. */
function isEmptyGroup(stands: StandsState): boolean {
  return (
    stands.stands === 0 &&
    stands.mechanicalBikes === 0 &&
    stands.electricalInternalBatteryBikes === 0 &&
    stands.electricalRemovableBatteryBikes === 0 &&
    !stands.bikes &&
    !stands.electricalBikes
  );
}

function standsProblems(stands: StandsState, capacity: number): string[] {
  const problems: string[] = [];
  const electrical = stands.electricalInternalBatteryBikes + stands.electricalRemovableBatteryBikes;
  if (stands.electricalBikes !== undefined && stands.electricalBikes !== electrical) {
    problems.push(
      `electricalBikes is ${stands.electricalBikes} but electricalInternalBatteryBikes + electricalRemovableBatteryBikes is ${electrical}`,
    );
  }
  const bikes = stands.mechanicalBikes + (stands.electricalBikes ?? electrical);
  if (stands.bikes !== undefined && stands.bikes !== bikes) {
    problems.push(`bikes is ${stands.bikes} but mechanicalBikes + electricalBikes is ${bikes}`);
  }
  const total = (stands.bikes ?? bikes) + stands.stands;
  if (total > capacity) {
    problems.push(`bikes + stands is ${total}, more than the station's capacity of ${capacity}`);
  }
  return problems;
}

// An explicit offset is required: a time without one means nothing on a server in another zone.
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

// A minute of states repeats the same few hundred instants a hundred thousand times: each is
// converted once. Bounded, so a file of all-distinct times cannot grow it without end.
const converted = new Map<string, string | undefined>();
const CONVERTED_KEPT = 4096;

/** The published form: UTC, whole seconds, `Z`. Undefined when the text is not a real instant. */
export function toUtcSeconds(text: string): string | undefined {
  if (converted.has(text)) return converted.get(text);
  const published = convertToUtcSeconds(text);
  if (converted.size >= CONVERTED_KEPT) converted.clear();
  converted.set(text, published);
  return published;
}

function convertToUtcSeconds(text: string): string | undefined {
  const match = INSTANT.exec(text);
  if (!match) return undefined;
  const time = Date.parse(text);
  if (Number.isNaN(time)) return undefined;
  // Date.parse rolls 2025-02-30 over to March; a real date survives the round trip.
  const [, year, month, day] = match;
  const local = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (local.getUTCDate() !== Number(day) || local.getUTCMonth() !== Number(month) - 1)
    return undefined;
  return publishedTime(new Date(time));
}

// Ahead of the clock by more than a station's clock drift (CLOCKS_APART_MS): a time zone mistake
// (local time written with Z) is a warning, days ahead a wrong date.
const AHEAD_ERROR_MS = 24 * 3_600_000;

/** A lastUpdate that cannot be true: before GBFS's earliest time, or ahead of this machine's clock. */
export function lastUpdateInRange(
  states: readonly Sourced<StationState>[],
  now: number = Date.now(),
): Problem[] {
  const problems: Problem[] = [];
  const clock = `this machine's clock (${new Date(now).toISOString().slice(0, 19)}Z)`;
  for (const { value, at } of states) {
    const published = value.lastUpdate === null ? undefined : toUtcSeconds(value.lastUpdate);
    if (published === undefined) continue; // null, or reported by lastUpdateIsUtcInstant
    const time = Date.parse(published);
    // As written, and in UTC when written with another offset (+05:00: no "Z" to blame).
    if (time >= GBFS_EARLIEST_MS && time - now <= CLOCKS_APART_MS) continue; // nearly all
    const given = value.lastUpdate as string;
    const utc = given.endsWith("Z");
    const text = utc ? `"${excerpt(given)}"` : `"${excerpt(given)}" (${published})`;
    // Before GBFS's earliest time: a placeholder (1970-01-01).
    if (time < GBFS_EARLIEST_MS)
      problems.push(
        error(
          at,
          "lastUpdate",
          `${text} is before 2015-12-15, the earliest time GBFS accepts: a placeholder? give null for a station that never reported`,
        ),
      );
    else if (time - now > AHEAD_ERROR_MS)
      problems.push(
        error(at, "lastUpdate", `${text} is more than a day ahead of ${clock}: a wrong date?`),
      );
    else if (time - now > CLOCKS_APART_MS) {
      const hours = Math.round(((time - now) / 3_600_000) * 10) / 10;
      problems.push(
        warning(
          at,
          "lastUpdate",
          `${text} is ${hours} h ahead of ${clock}: ${utc ? "a local time written with Z (UTC)" : "a wrong offset"}, or a clock set wrong? published as given`,
        ),
      );
    }
  }
  return problems;
}

/**
 * `zones`: each contract's time zone by its contractKey, so that a local time written without an
 * offset is said with the offset it has in its contract's zone: a feed that drops it most often
 * writes the city's time, and "Z if it is UTC" alone led to a time published an hour off.
 */
export function lastUpdateIsUtcInstant(
  /** A contract absent (a refused record's: see own-fields.ts) has no time zone to say. */
  states: readonly Sourced<Pick<StationState, "lastUpdate"> & { contract?: string }>[],
  zones: ReadonlyMap<string, string> = new Map(),
): Problem[] {
  return states
    .filter(
      (state) =>
        state.value.lastUpdate !== null && toUtcSeconds(state.value.lastUpdate) === undefined,
    )
    .map((state) => {
      const text = String(state.value.lastUpdate);
      const { contract } = state.value;
      const zone = contract === undefined ? undefined : zones.get(contractKey(contract));
      return error(state.at, "lastUpdate", `"${excerpt(text)}" ${whyNotInstant(text, zone)}`);
    });
}

/**
 * Of a lastUpdate toUtcSeconds refused: what its form lacks when it is a near miss (the forms
 * databases and exports write), else the form; or a date or time of day that does not exist.
 */
function whyNotInstant(text: string, contractZone: string | undefined): string {
  if (INSTANT.test(text)) return "has the right form, but no such date or time of day exists";
  if (isNoValue(text))
    return "is a word for no value, as databases export it: give null (no quotes) for a station that never reported";
  const near =
    /^(\d{4}-\d{2}-\d{2})([T ])(\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/.exec(
      text,
    );
  const lacks: string[] = [];
  if (near) {
    const [, date, separator, minutes, seconds, zone] = near;
    if (separator === " ") lacks.push("a T between the date and the time");
    if (seconds === undefined) lacks.push("seconds");
    // +01 and +0100 as +01:00.
    const offset =
      zone?.length === 3 ? `${zone}:00` : zone && `${zone.slice(0, 3)}:${zone.slice(-2)}`;
    const written = `${date}T${minutes}${seconds ?? ":00"}`;
    const local =
      zone === undefined && contractZone ? localOffset(contractZone, written) : undefined;
    if (local !== undefined) {
      lacks.push("a time zone");
      return `lacks ${lacks.join(", ")}: write it as ${written}${local} if it is ${contractZone} time (its contract's timezone), or ${written}Z if it is UTC`;
    }
    if (zone === undefined) lacks.push("a time zone (Z for UTC, or an offset such as +01:00)");
    else if (zone.length === 3) lacks.push(`the offset's minutes (${offset})`);
    else if (zone.length === 5) lacks.push(`the offset's colon (${offset})`);
    if (lacks.length > 0)
      return `lacks ${lacks.join(", ")}: write it as ${written}${zone === undefined ? "Z if it is UTC" : zone === "Z" ? "Z" : offset}`;
  }
  if (/^\d{9,13}$/.test(text))
    return `is a count of seconds or milliseconds since 1970 (as v1 answers write it): write it as a date and time, ${instantSince1970(Number(text))}`;
  return "is not a date and time of the form 2025-02-08T16:44:06Z (with seconds, and Z or an offset such as +01:00)";
}
