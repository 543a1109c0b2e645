// What to say of a field the schema does not know: most are a slip (a case, a letter) or a name
// from the API's own answers, which a data team converting a dump of the original service (v1's
// `available_bikes`, v3's `position`) writes back as it reads it.
import type { z } from "zod";
import { Station } from "../model/station.js";
import { StationState } from "../model/station-state.js";
import { fieldsAt } from "./schema-at.js";
import { typosApart } from "./typos.js";

interface AnswerName {
  field: string;
  hint: string;
  instead?: readonly string[];
  madeFromState?: true;
}

/**
 * The original service's names (v1 and v3 answers) and common exports' ones: the field of a source
 * record each stands for, and what to write instead. Said only where the record has that field
 * (`lng` in a contract is no longitude). `instead`: the fields the hint names to write in its
 * place (by default `field`), whose absence it says already.
 */
const ANSWER_NAMES: Record<string, AnswerName | readonly AnswerName[]> = {
  contract_name: { field: "contract", hint: 'the API\'s name for it; write "contract"' },
  contractName: { field: "contract", hint: 'the API\'s name for it; write "contract"' },
  position: {
    field: "latitude",
    hint: 'the API\'s form; write "latitude" and "longitude" as fields of their own',
    instead: ["latitude", "longitude"],
  },
  lat: { field: "latitude", hint: 'write "latitude"' },
  lng: { field: "longitude", hint: 'write "longitude"' },
  lon: { field: "longitude", hint: 'write "longitude"' },
  bike_stands: {
    field: "capacity",
    hint: 'the v1 API\'s name for the stands; write "capacity"',
  },
  // In a state, and in its mainStands or overflowStands, where the counts go.
  available_bikes: [
    {
      field: "mainStands",
      hint: 'the v1 API\'s name; a state gives its bikes in "mainStands": {"mechanicalBikes", "electricalInternalBatteryBikes", "electricalRemovableBatteryBikes"}',
    },
    { field: "bikes", hint: 'the v1 API\'s name; write "bikes"' },
  ],
  available_bike_stands: [
    {
      field: "mainStands",
      hint: 'the v1 API\'s name; a state gives its free stands as "stands" in "mainStands"',
    },
    { field: "stands", hint: 'the v1 API\'s name; write "stands"' },
  ],
  last_update: {
    field: "lastUpdate",
    hint: 'the v1 API\'s name; write "lastUpdate", an ISO 8601 time (e.g. "2025-02-08T16:44:06Z")',
  },
  totalStands: {
    field: "mainStands",
    hint: 'published, made from "mainStands" and "overflowStands": leave it out',
    instead: [],
    madeFromState: true,
  },
  availabilities: {
    field: "stands",
    hint: "the API's form; give the counts directly in this object",
    instead: [],
  },
};

/**
 * What `key`, unknown in the object at `path` of a record read with `schema`, was likely meant
 * as: the hint said of it, and the fields that hint tells to write in its place (a missing one of
 * them is said by the hint, not again as required). `given`: the fields that object has (a
 * misspelling is of a field it lacks).
 */
export function unknownFieldReading(
  schema: z.ZodType,
  path: readonly PropertyKey[],
  key: string,
  given: readonly string[],
): { hint: string; instead: readonly string[] } {
  const known = fieldsAt(schema, path);
  // "Capacity", "LastUpdate": a spreadsheet's or a database's capitalisation.
  const meant = known.find((name) => name.toLowerCase() === key.toLowerCase());
  if (meant !== undefined)
    return given.includes(meant)
      ? {
          hint: `unknown field: given twice, as "${key}" and "${meant}" (names are read with their case); leave "${key}" out`,
          instead: [],
        }
      : {
          hint: `unknown field: field names are read with their case; write "${meant}"`,
          instead: [meant],
        };
  const readings = Object.hasOwn(ANSWER_NAMES, key) ? [ANSWER_NAMES[key] ?? []].flat() : [];
  // Said where the record has the field it stands for; what is made from a state (published,
  // never given), in a station's record too.
  const answer = readings.find(
    (reading) =>
      known.includes(reading.field) ||
      (reading.madeFromState === true && schema === Station && path.length === 0),
  );
  if (answer !== undefined)
    return { hint: `unknown field: ${answer.hint}`, instead: answer.instead ?? [answer.field] };
  // A station's live state written into its description, as one export of both would.
  if (schema === Station && path.length === 0 && isLiveField(key, readings[0]))
    return {
      hint: "unknown field: part of the station's live state, which goes in the states file (read every minute), not in stations",
      instead: [],
    };
  const misspelt = known.find((name) => !given.includes(name) && typosApart(name, key) <= 2);
  if (misspelt !== undefined)
    return { hint: `unknown field: "${misspelt}" misspelt?`, instead: [misspelt] };
  return {
    hint:
      known.length > 0
        ? `unknown field: the fields here are ${known.join(", ")}`
        : "unknown field (check its spelling)",
    instead: [],
  };
}

const LIVE_FIELDS = new Set(
  fieldsAt(StationState, []).filter((name) => !fieldsAt(Station, []).includes(name)),
);

/** A field of a state (`status`, `mainStands`), or the API's name for one (`available_bikes`). */
const isLiveField = (key: string, answer: { field: string } | undefined): boolean =>
  LIVE_FIELDS.has(key) || (answer !== undefined && LIVE_FIELDS.has(answer.field));
