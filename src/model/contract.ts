// A contract: the service area of one agglomeration, as maintainers write it in contracts.json.
import { z } from "zod";
import { webUrl } from "./web-url.js";

// GBFS Language: IETF BCP 47 as the feeds' schemas restrict it (fr, en, pt-BR).
const LANGUAGE = /^[a-z]{2,3}(-[A-Z]{2})?$/;

/** A tag GBFS takes, once its case is right (EN → en, pt-br → pt-BR). */
const languageInCase = (tag: string): string => {
  const [language = "", region] = tag.split(/[-_]/);
  return region === undefined
    ? language.toLowerCase()
    : `${language.toLowerCase()}-${region.toUpperCase()}`;
};

// BCP 47 subtags GBFS's pattern leaves out: a script (zh-Hant-TW) and a region in digits (es-419).
const SCRIPT = /^([a-z]{2,3})-([A-Z][a-z]{3})(?:-([A-Z]{2}))?$/i;
const NUMERIC_REGION = /^([a-z]{2,3})-(\d{3})$/i;

const language = z.string().regex(LANGUAGE, {
  error: (issue) => {
    const tag = typeof issue.input === "string" ? issue.input : "";
    const meant = languageInCase(tag);
    if (LANGUAGE.test(meant)) return `must be a language tag as GBFS writes it: write ${meant}`;
    // Valid BCP 47, refused all the same: said as such, with the tag GBFS does take.
    const script = SCRIPT.exec(tag);
    if (script) {
      const [, lang = "", name = "", region] = script;
      const without = languageInCase(region ? `${lang}-${region}` : lang);
      return `has a script (${name}), which GBFS's schemas do not take: a language and a region only, write ${without}`;
    }
    const numeric = NUMERIC_REGION.exec(tag);
    if (numeric) {
      const [, lang = "", region = ""] = numeric;
      return `has a region in digits (${region}), which GBFS's schemas do not take: write ${lang.toLowerCase()}, or with a country's code (e.g. ${lang.toLowerCase()}-MX)`;
    }
    return "must be a language tag such as fr, en or pt-BR";
  },
});

const Operator = z.strictObject({
  name: z.string().min(1),
  url: webUrl().optional(),
  email: z.email().optional(),
  phone: z
    .string()
    .regex(/^\+[1-9]\d{1,14}$/, "must be in E.164 form, e.g. +33123456789")
    .optional(),
});

// `{}` states no licence: read as none (warned of by the rule licenceStated), never published as
// one, which would be an empty licence in the data package and a blank one on the portal.
const License = z
  .strictObject({
    id: z.string().min(1).optional().describe("SPDX identifier, e.g. ODbL-1.0"),
    url: webUrl().optional(),
  })
  .transform((license) => (license.id || license.url ? license : undefined));

/** One kind of bike the contract runs. Fields named as in GBFS go to `vehicle_types` as they are. */
const BikeType = z.strictObject({
  max_range_meters: z
    .number()
    .positive()
    .optional()
    .describe("Distance a full battery carries the bike; required for electrical bikes"),
});

/** The kinds of bike of the fleet, named as the station states count them. */
export const BIKE_KINDS = [
  "mechanical",
  "electricalInternalBattery",
  "electricalRemovableBattery",
] as const;
export type BikeKind = (typeof BIKE_KINDS)[number];

const BikeTypes = z.partialRecord(z.enum(BIKE_KINDS), BikeType);

/**
 * What a contract's name may be: it becomes a folder and a URL segment (no dots, slashes, spaces or
 * accents), and starts with a letter, so that it is never mistaken for a station number in a URL.
 * Lower case: a static host or a CDN matches paths case-sensitively, and the tree's paths are the
 * names as written (a client asking for `Dublin` is answered by velodata serve, without regard to
 * case).
 */
export const CONTRACT_NAME = /^[a-z][a-z0-9_-]{0,63}$/;

export const Contract = z.strictObject({
  name: z.string().min(1).describe("Identifier of the contract, used in URLs"),
  commercial_name: z.string().min(1),
  country_code: z.string().regex(/^[A-Z]{2}$/, {
    error: (issue) =>
      typeof issue.input === "string" && /^[a-z]{2}$/i.test(issue.input)
        ? `must be an ISO 3166-1 alpha-2 code in capitals: write ${issue.input.toUpperCase()}`
        : typeof issue.input === "string" && /^[a-z]{3}$/i.test(issue.input)
          ? `must be the two-letter ISO 3166-1 code (alpha-2), not a three-letter one (${issue.input}): e.g. FR, IE`
          : "must be an ISO 3166-1 alpha-2 code in capitals, e.g. FR",
  }),
  cities: z.array(z.string().min(1)),
  parkingApi: z.boolean().default(false).describe("Whether the contract offers the parking API"),
  // Required for GBFS, which every contract publishes: their presence is checked by the rule
  // `gbfsFieldsPresent`, whose message says what to add (zod could only say "is required").
  timezone: z.string().optional().describe("IANA time zone, e.g. Europe/Paris"),
  languages: z.array(language).optional().describe("IETF BCP 47 tags, first the main one"),
  feed_contact_email: z.email().optional().describe("Where GBFS consumers report feed problems"),
  opening_hours: z.string().min(1).optional().describe("OSM opening_hours, e.g. 24/7"),
  bikeTypes: BikeTypes.optional().describe("The kinds of bike in service"),
  operator: Operator.optional(),
  license: License.optional(),
  gbfs_system_id: z
    .string()
    .regex(
      /^[A-Za-z0-9.@:/_-]{1,64}$/,
      "must be 1 to 64 of the characters GBFS asks of an ID: A-Z, a-z, 0-9 and . @ : / _ -",
    )
    .optional()
    .describe("GBFS system_id, unique among the world's systems; default the contract's name"),
});
export type Contract = z.infer<typeof Contract>;

export const ContractsFile = z.strictObject({ contracts: z.array(z.unknown()) });
