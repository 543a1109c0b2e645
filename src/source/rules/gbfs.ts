// Rules for GBFS, which every contract publishes: what the feeds require and the source must say.
import { createRequire } from "node:module";
import type OpeningHours from "opening_hours";
import { excerpt } from "../../errors.js";
import type { BikeKind, Contract } from "../../model/contract.js";
import { GBFS_LICENSE_IDS } from "../../model/gbfs-license-ids.js";
import { GBFS_TIME_ZONES } from "../../model/gbfs-time-zones.js";
import { asksAttribution } from "../../model/licence-attribution.js";
import type { StationState } from "../../model/station-state.js";
import { counted } from "../../plural.js";
import { error, type Problem, type Sourced, warning } from "../problems.js";
import { contractKey } from "./records.js";

type GbfsField = "timezone" | "languages" | "feed_contact_email" | "opening_hours" | "bikeTypes";

// What to write, so that the message alone is enough to fix the file.
const HOW_TO_ADD: Record<GbfsField, string> = {
  timezone: `add "timezone": "Europe/Paris" (the IANA time zone of the service area)`,
  languages: `add "languages": ["fr"] (the languages of the names, main one first)`,
  feed_contact_email: `add "feed_contact_email": "opendata@example.org" (where feed consumers report problems)`,
  opening_hours: `add "opening_hours": "24/7" (OSM opening_hours of the service, e.g. "Mo-Su 05:00-01:00")`,
  bikeTypes: `add "bikeTypes": {"mechanical": {}} listing the kinds of bike in service (mechanical, electricalInternalBattery, electricalRemovableBattery)`,
};

/** Each contract's GBFS system_id (its own, or its name's) is no other contract's. */
export function systemIdsUnique(contracts: readonly Sourced<Contract>[]): Problem[] {
  const first = new Map<string, Sourced<Contract>>();
  const problems: Problem[] = [];
  for (const contract of contracts) {
    const id = contract.value.gbfs_system_id ?? contract.value.name.toLowerCase();
    const before = first.get(id);
    if (!before) {
      first.set(id, contract);
      continue;
    }
    // Two names never collide (contractNamesUnique): one of the two gave its own id.
    const [given, other] =
      contract.value.gbfs_system_id !== undefined ? [contract, before] : [before, contract];
    problems.push(
      error(
        given.at,
        "gbfs_system_id",
        `"${excerpt(id)}" is also contract ${excerpt(other.value.name)}'s GBFS system_id: each system needs its own`,
      ),
    );
  }
  return problems;
}

/** GBFS requires these in system_information and vehicle_types; velodata never makes them up. */
export function gbfsFieldsPresent(contracts: readonly Sourced<Contract>[]): Problem[] {
  const problems: Problem[] = [];
  for (const { value, at } of contracts) {
    const missing: GbfsField[] = [];
    if (value.timezone === undefined) missing.push("timezone");
    if (!value.languages?.length) missing.push("languages");
    if (value.feed_contact_email === undefined) missing.push("feed_contact_email");
    if (value.opening_hours === undefined) missing.push("opening_hours");
    if (!value.bikeTypes || Object.keys(value.bikeTypes).length === 0) missing.push("bikeTypes");
    for (const field of missing) {
      problems.push(error(at, field, `required for the GBFS feeds: ${HOW_TO_ADD[field]}`));
    }
  }
  return problems;
}

/**
 * A zone outside the GBFS schemas' list would be published as is and fail every GBFS validator:
 * the list is of tz database names, spelt exactly (Intl would take "europe/dublin").
 */
export function timezonesKnown(contracts: readonly Sourced<Contract>[]): Problem[] {
  const problems: Problem[] = [];
  for (const { value, at } of contracts) {
    const zone = value.timezone;
    if (zone === undefined || GBFS_TIME_ZONES.has(zone)) continue;
    const spelt = [...GBFS_TIME_ZONES].find((known) => known.toLowerCase() === zone.toLowerCase());
    const fix = spelt ? `write it "${spelt}"` : "give an IANA time zone, e.g. Europe/Paris";
    problems.push(
      error(at, "timezone", `"${excerpt(zone)}" is not a time zone GBFS accepts: ${fix}`),
    );
  }
  return problems;
}

/**
 * GBFS 3.0 publishes `opening_hours` in OSM's syntax and asks publishers to validate it: trip
 * planners read it to tell riders when the service runs. Checked by OSM's own evaluator, whose
 * mistakes (a typo it would read as something else) are warnings and whose refusals are errors.
 */
export function openingHoursValid(contracts: readonly Sourced<Contract>[]): Problem[] {
  const problems: Problem[] = [];
  for (const { value, at } of contracts) {
    const hours = value.opening_hours;
    if (hours === undefined || hours === "24/7") continue;
    try {
      const parsed = new (openingHours())(hours, null, 0); // mode 0: time ranges;
      const said = parsed
        .getStructuredWarnings()
        .filter(({ type }) => !(type === AFTER_MIDNIGHT && laterRulesClose(hours)));
      // A word it had to guess ("Lu" for Monday, "5h"): published as written, which other
      // readers refuse or read otherwise ("Lu-Di" is read Monday to Tuesday). Its reading is shown.
      const guessed = said.filter(({ type }) => type === "word_error_correction");
      if (guessed.length > 0) {
        problems.push(
          error(
            at,
            "opening_hours",
            `"${excerpt(hours)}" is not OSM opening_hours as written: OSM's evaluator guesses "${excerpt(parsed.prettifyValue())}" (${[...new Set(guessed.map(({ message }) => message))].join(" ")}); write the hours in OSM's syntax, e.g. "Mo-Su 05:00-00:30"`,
          ),
        );
        continue;
      }
      // It repeats a warning for each place it applies to: once is enough here.
      for (const message of new Set(said.map(({ message }) => message)))
        problems.push(warning(at, "opening_hours", `"${excerpt(hours)}": ${message}`));
    } catch (refusal) {
      problems.push(
        error(
          at,
          "opening_hours",
          `"${excerpt(hours)}" is not OSM opening_hours (${evaluatorsWords(refusal)}); e.g. "Mo-Su 05:00-00:30" or "24/7"`,
        ),
      );
    }
  }
  return problems;
}

/**
 * Its note that a rule after hours past midnight takes that night's end away: no slip when the
 * later rules close (`Mo-Su 05:00-00:30; PH off`: a holiday is closed from its midnight), a night
 * cut short otherwise (`Mo-Fr 06:00-02:00; Sa-Su 08:00-20:00` closes Friday at midnight).
 */
const AFTER_MIDNIGHT = "additional_rule_separator_not_used_after_time_wrapping_midnight";
const laterRulesClose = (hours: string): boolean =>
  hours
    .split(";")
    .slice(1)
    // A fallback (`||`) or a rule added with `,` may open: only plain closing rules count.
    .every((rule) => !/\|\||,/.test(rule) && /\b(?:off|closed)\s*$/i.test(rule.trim()));

/** Loaded only when a contract has hours to check: it takes ~0.2 s, a cron refresh's tenth. */
const openingHours = (): typeof OpeningHours =>
  createRequire(import.meta.url)("opening_hours") as typeof OpeningHours;

/** `Mo-Su 25:00 <--- (Time range starts outside of the current day)`: where, then why. */
function evaluatorsWords(refusal: unknown): string {
  const text = String(refusal).trim();
  const marker = text.match(/^(.*?) <--- \((.*)\)$/s);
  if (!marker) return text;
  return `after "${marker[1]}": ${(marker[2] as string).trim()}`;
}

/**
 * GBFS 3.0 takes `license_id` from a fixed list of SPDX ids (v2.3 makes an spdx.org URL of it): any
 * other id would make the feeds invalid. A licence that has none is given by its `url`.
 */
export function licenseIdsKnown(contracts: readonly Sourced<Contract>[]): Problem[] {
  const problems: Problem[] = [];
  for (const { value, at } of contracts) {
    const id = value.license?.id;
    if (id === undefined || GBFS_LICENSE_IDS.has(id)) continue;
    const spelt = [...GBFS_LICENSE_IDS].find((known) => known.toLowerCase() === id.toLowerCase());
    const fix = spelt
      ? `write it "${spelt}"`
      : `give the licence's SPDX id, e.g. "ODbL-1.0", "CC-BY-4.0", "etalab-2.0", or, for a licence without one, its "url" alone`;
    problems.push(
      error(at, "license.id", `"${excerpt(id)}" is not an SPDX licence id GBFS accepts: ${fix}`),
    );
  }
  return problems;
}

/**
 * A contract that states no licence: GBFS 3.0 reads a feed without `license_id` or `license_url`
 * as CC0 (public domain), while the portal and the data package say "not stated". Worth saying,
 * not refusing: the operator may mean exactly that.
 */
export function licenceStated(contracts: readonly Sourced<Contract>[]): Problem[] {
  return contracts
    .filter(({ value }) => !value.license?.id && !value.license?.url)
    .map(({ at }) =>
      warning(
        at,
        "license",
        'none stated: GBFS 3.0 reads feeds without one as public domain (CC0); give "license": { "id": "…" } (an SPDX id, e.g. "ODbL-1.0", "CC-BY-4.0", "etalab-2.0"), or its "url"',
      ),
    );
}

/**
 * A licence that asks reusers to credit the licensor (ODbL, CC BY, Licence Ouverte) names the
 * contract's operator as the one to credit, in GBFS and in the bundle's data package: without an
 * operator, nobody is named, and reusers cannot do what the licence asks.
 */
export function attributionNamed(contracts: readonly Sourced<Contract>[]): Problem[] {
  return contracts.flatMap(({ value, at }) => {
    const { license, operator } = value;
    if (!license || operator || !asksAttribution(license)) return [];
    // A licence of its own (a URL, no SPDX id) may ask it: GBFS names the operator for it too.
    const asks = license.id
      ? `its licence (${license.id}) asks`
      : `its licence (${license.url}) may ask`;
    return [
      warning(
        at,
        "operator",
        `none, while ${asks} reusers to credit the licensor: the GBFS feeds and the bundle's data package name no one; give "operator": { "name": "…" } (whom to credit)`,
      ),
    ];
  });
}

/** Each language once: GBFS 3.0 gives every name once per language. */
export function languagesUnique(contracts: readonly Sourced<Contract>[]): Problem[] {
  return contracts.flatMap(({ value, at }) => {
    const twice = (value.languages ?? []).filter((code, index, all) => all.indexOf(code) !== index);
    return twice.length === 0
      ? []
      : [error(at, "languages", `"${twice[0]}" is listed twice: name each language once`)];
  });
}

const ELECTRICAL: readonly BikeKind[] = ["electricalInternalBattery", "electricalRemovableBattery"];

/** GBFS requires max_range_meters of a motorised vehicle type; only the operator knows it. */
export function electricalBikesHaveRange(contracts: readonly Sourced<Contract>[]): Problem[] {
  const problems: Problem[] = [];
  for (const { value, at } of contracts) {
    for (const kind of ELECTRICAL) {
      const type = value.bikeTypes?.[kind];
      if (type && type.max_range_meters === undefined) {
        problems.push(
          error(
            at,
            `bikeTypes.${kind}.max_range_meters`,
            `required for the GBFS feeds (electric-assist bikes): add the distance in metres a full battery carries the bike, e.g. "max_range_meters": 60000`,
          ),
        );
      }
    }
  }
  return problems;
}

const COUNTED: ReadonlyArray<readonly [BikeKind, keyof StationState["mainStands"]]> = [
  ["mechanical", "mechanicalBikes"],
  ["electricalInternalBattery", "electricalInternalBatteryBikes"],
  ["electricalRemovableBattery", "electricalRemovableBatteryBikes"],
];

/** GBFS counts bikes by vehicle type: a bike of a kind the contract does not declare has none. */
export function bikesOfDeclaredTypes(
  contracts: readonly Sourced<Contract>[],
  states: readonly Sourced<StationState>[],
): Problem[] {
  // A name given twice is reported as such; its stations are checked against the first contract
  // of that name, as every other rule finds it (not a later one's kinds of bike).
  const declared = new Map<string, NonNullable<Contract["bikeTypes"]>>();
  for (const { value } of contracts) {
    const key = contractKey(value.name);
    if (!declared.has(key)) declared.set(key, value.bikeTypes ?? {});
  }
  const problems: Problem[] = [];
  for (const { value, at } of states) {
    const types = declared.get(contractKey(value.contract));
    if (!types) continue; // reported by statesForKnownStations
    for (const [kind, count] of COUNTED) {
      if (types[kind]) continue;
      for (const [field, stands] of [
        ["mainStands", value.mainStands],
        ["overflowStands", value.overflowStands],
      ] as const) {
        if (stands && (stands[count] ?? 0) > 0) {
          problems.push(
            error(
              at,
              `${field}.${count}`,
              `${counted(stands[count] ?? 0, "bike")} of a kind contract "${value.contract}" does not run: add "${kind}" to its bikeTypes in contracts.json`,
            ),
          );
        }
      }
    }
  }
  return problems;
}
