// What to say of a field the schema does not know: most are a slip (a case, a letter) or a name
// from the API's own answers, which a data team converting a dump of the original service (v1's
// `available_bikes`, v3's `position`) writes back as it reads it.
import type { z } from "zod";
import { fieldsAt } from "./schema-at.js";
import { typosApart } from "./typos.js";

/**
 * The original service's names (v1 and v3 answers) and common exports' ones, with what a source
 * record says instead. Only asked for a field the record's schema does not know.
 */
const ANSWER_NAMES: Record<string, string> = {
  contract_name: 'the API\'s name for it; write "contract"',
  contractName: 'the API\'s name for it; write "contract"',
  position: 'the API\'s form; write "latitude" and "longitude" as fields of their own',
  lat: 'write "latitude"',
  lng: 'write "longitude"',
  lon: 'write "longitude"',
  bike_stands: "the v1 API's name for the stands; a station's record gives them as \"capacity\"",
  available_bikes:
    'the v1 API\'s name; a state gives its bikes in "mainStands": {"mechanicalBikes", "electricalInternalBatteryBikes", "electricalRemovableBatteryBikes"}',
  available_bike_stands:
    'the v1 API\'s name; a state gives its free stands as "stands" in "mainStands"',
  last_update:
    'the v1 API\'s name; write "lastUpdate", an ISO 8601 time (e.g. "2025-02-08T16:44:06Z")',
  totalStands: 'published, made from "mainStands" and "overflowStands": leave it out',
  availabilities:
    'the API\'s form; a state gives the counts directly in "mainStands" (and "overflowStands")',
};

/**
 * The hint for `key`, unknown in the object at `path` of a record read with `schema`; `given`: the
 * fields that object has (a misspelling is of a field it lacks).
 */
export function unknownFieldHint(
  schema: z.ZodType,
  path: readonly PropertyKey[],
  key: string,
  given: readonly string[],
): string {
  const known = fieldsAt(schema, path);
  // "Capacity", "LastUpdate": a spreadsheet's or a database's capitalisation.
  const meant = known.find((name) => name.toLowerCase() === key.toLowerCase());
  if (meant !== undefined)
    return `unknown field: field names are read with their case; write "${meant}"`;
  const answer = Object.hasOwn(ANSWER_NAMES, key) ? ANSWER_NAMES[key] : undefined;
  if (answer !== undefined) return `unknown field: ${answer}`;
  const misspelt = known.find((name) => !given.includes(name) && typosApart(name, key) <= 2);
  if (misspelt !== undefined) return `unknown field: "${misspelt}" misspelt?`;
  return known.length > 0
    ? `unknown field: the fields here are ${known.join(", ")}`
    : "unknown field (check its spelling)";
}
