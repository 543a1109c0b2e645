// Turns raw records (from JSON or CSV) into typed ones with zod, one problem per zod issue.
import type { z } from "zod";
import { excerpt } from "../errors.js";
import { INT32_MAX, INT32_RANGE, INT32_REASON } from "../model/int32.js";
import { nounFor } from "../plural.js";
import { withFields } from "../with-fields.js";
import { booleanWordHint } from "./boolean-words.js";
import { isNoValue } from "./no-value.js";
import { type FileNumberTexts, type NumberText, plainNumber } from "./number-texts.js";
import { error, type Problem, type RecordRef, recordLabel, type Sourced } from "./problems.js";
import { emptyTextAt, wholeNumberAt } from "./schema-at.js";
import { spacedNumber } from "./spaced-number.js";
import { unknownFieldReading } from "./unknown-field.js";

export interface RawRecord {
  raw: unknown;
  at: Omit<RecordRef, "label">;
  /** Its numbers as the file writes them, where the reader knows (see number-texts.ts). */
  written?: FileNumberTexts;
}

/** A record that failed its schema, as read, and the fields (at its top) that failed it. */
export interface RejectedRecord {
  raw: unknown;
  at: RecordRef;
  /** Null when the record as a whole failed it (not an object, or a rule across its fields). */
  failedFields: ReadonlySet<string> | null;
}

/** `rejected`: the records that failed the schema (rules across records leave them out). */
export function parseRecords<T>(
  schema: z.ZodType<T>,
  records: readonly RawRecord[],
): { records: Sourced<T>[]; problems: Problem[]; rejected: RejectedRecord[] } {
  const parsed: Sourced<T>[] = [];
  const problems: Problem[] = [];
  const rejected: RejectedRecord[] = [];
  for (const { raw, at, written } of records) {
    const texts: NumberText | undefined = written && ((path) => written(at.index, path));
    const label = recordLabel(raw, texts);
    const ref: RecordRef = label === undefined ? at : withFields<RecordRef>(at, { label });
    const result = schema.safeParse(raw);
    if (result.success) {
      parsed.push({ value: result.data, at: ref });
      continue;
    }
    rejected.push({ raw, at: ref, failedFields: failedFields(result.error.issues) });
    // Each unknown field its own line: each is its own slip, with its own hint. A field that hint
    // names (`Capacity`: write "capacity") is not said missing again: one slip, one line.
    const unknownLines = new Map<z.core.$ZodIssue, Problem[]>();
    const saidInstead = new Set<string>();
    for (const issue of result.error.issues) {
      if (issue.code !== "unrecognized_keys") continue;
      const given = Object.keys(valueAt(raw, issue.path) as object);
      const lines = issue.keys.map((key) => {
        const { hint, instead } = unknownFieldReading(schema, issue.path, key, given);
        for (const field of instead) saidInstead.add([...issue.path.map(String), field].join("."));
        return error(ref, excerpt(pathOf(issue, key)), hint);
      });
      unknownLines.set(issue, lines);
    }
    for (const issue of result.error.issues) {
      if (isMissing(issue, raw) && saidInstead.has(fieldOf(issue) ?? "")) continue;
      const lines = unknownLines.get(issue);
      if (lines) problems.push(...lines);
      else
        problems.push(
          error(
            ref,
            fieldOf(issue),
            issueMessage(
              issue,
              raw,
              texts,
              wholeNumberAt(schema, issue.path),
              emptyTextAt(schema, issue.path),
            ),
          ),
        );
    }
  }
  return { records: parsed, problems, rejected };
}

/** The top-level fields the issues are about; null if one is about the record itself. */
function failedFields(issues: readonly z.core.$ZodIssue[]): ReadonlySet<string> | null {
  const fields = new Set<string>();
  for (const issue of issues) {
    const [field] = issue.path;
    // Unknown fields are extra: the record's own fields are as they were.
    if (field === undefined && issue.code === "unrecognized_keys") continue;
    if (typeof field !== "string") return null;
    fields.add(field);
  }
  return fields;
}

/** An issue of a field left out (zod's invalid_type of an undefined value). */
const isMissing = (issue: z.core.$ZodIssue, raw: unknown): boolean =>
  issue.code === "invalid_type" && valueAt(raw, issue.path) === undefined;

function fieldOf(issue: z.core.$ZodIssue): string | undefined {
  return issue.path.map(String).join(".") || undefined;
}

function pathOf(issue: z.core.$ZodIssue, key: string): string {
  return [...issue.path.map(String), key].join(".");
}

/** A number written as JSON would write it, but as text ("4", "-2.5", "005", "+13"). */
const PLAIN_NUMBER = /^[-+]?\d+(?:\.\d+)?$/;

/**
 * What is wrong with the value at the issue's path of `raw`, for people: zod's own wording ("Too
 * small: expected number to be >=0", "Invalid email address") reads as a programmer's. A schema's
 * own message is kept as written.
 */
export function issueMessage(
  issue: z.core.$ZodIssue,
  raw: unknown,
  written?: NumberText,
  wholeNumber = false,
  emptyText = false,
): string {
  const value = valueAt(raw, issue.path);
  if (issue.code === "unrecognized_keys") return "unknown field (check its spelling)";
  // An address, a zip code or a city may be empty: a database's export leaves it out, or null.
  const none = emptyText ? ': write "" where there is none' : "";
  if (issue.code === "invalid_type" && value === undefined) return `is required${none}`;
  if (issue.code === "invalid_type" && value === null && emptyText)
    return `expected string, got null${none} (a text, never null)`;
  // A schema's own words for a value of the wrong type (lastUpdate's for a number).
  if (issue.code === "invalid_type" && !ZOD_WORDING.test(issue.message)) return issue.message;
  const got = `, got ${typeof value === "number" ? excerpt(written?.(issue.path) ?? plainNumber(value)) : shortJson(value)}`;
  if (issue.code === "invalid_type" && issue.expected === "int" && typeof value === "number")
    return `must be a whole number${got}`;
  if (issue.code === "invalid_type" && typeof value === "string" && SCIENTIFIC.test(value))
    return `expected number${got}: scientific notation, as a spreadsheet shows long numbers, rounded; write the number in full`;
  const whole = wholeNumber || (issue.code === "invalid_type" && issue.expected === "int");
  // "1 234": a number as a spreadsheet shows it to people (see spaced-number.ts).
  const spaced =
    issue.code === "invalid_type" &&
    (issue.expected === "number" || issue.expected === "int") &&
    typeof value === "string"
      ? spacedNumber(value, whole)
      : undefined;
  if (spaced) return `expected ${whole ? "a whole number" : "number"}${got}: ${spaced}`;
  // A count: its comma can only part thousands ("1,005" stands), or is a slip ("4,5").
  if (
    issue.code === "invalid_type" &&
    whole &&
    typeof value === "string" &&
    DECIMAL_COMMA.test(value)
  )
    return THOUSANDS.test(value)
      ? `expected a whole number${got}: a thousands separator (an English spreadsheet's); write ${value.replace(",", "")}`
      : /,0+$/.test(value)
        ? `expected a whole number${got}: a decimal comma, as a spreadsheet in a French or German locale writes it; write ${value.replace(/,0+$/, "")}`
        : `must be a whole number${got}`;
  if (issue.code === "invalid_type" && typeof value === "string" && DECIMAL_COMMA.test(value))
    return THOUSANDS.test(value)
      ? `expected number${got}: a decimal comma (a French or German spreadsheet's) or a thousands separator (an English one's); write ${value.replace(",", ".")} or ${value.replace(",", "")}, as meant`
      : `expected number${got}: a decimal comma, as a spreadsheet in a French or German locale writes it; write ${value.replace(",", ".")}`;
  // What a database or a spreadsheet writes for no value.
  if (
    issue.code === "invalid_type" &&
    ["number", "int", "boolean"].includes(issue.expected) &&
    typeof value === "string" &&
    isNoValue(value)
  )
    return `expected ${issue.expected === "boolean" ? "true or false" : "number"}${got}: a word for no value, as databases export it; where the field may have none, leave the cell empty (null in JSON)`;
  // VRAI/FAUX, WAHR/FALSCH, 1/0, oui/non: a spreadsheet's or a database's own words for them.
  if (issue.code === "invalid_type" && issue.expected === "boolean" && value !== null) {
    // "true" in a JSON file: the word is right, its quotes make it text.
    if (typeof value === "string" && /^(true|false)$/i.test(value))
      return `expected true or false${got}: write ${value.toLowerCase()} without quotes`;
    // 1 and 0 as JSON numbers too: a database's export of its bits.
    const hint =
      typeof value === "string" || typeof value === "number"
        ? booleanWordHint(String(value))
        : undefined;
    return `expected true or false${got}${hint ? `: ${hint}` : ""}`;
  }
  // A JSON export that quotes its numbers, or leaves a code's quotes out (a zip code, 35000).
  if (
    issue.code === "invalid_type" &&
    (issue.expected === "number" || issue.expected === "int") &&
    typeof value === "string" &&
    PLAIN_NUMBER.test(value)
  )
    return `expected number${got}: write ${plainNumber(Number(value))} without quotes`;
  if (issue.code === "invalid_type" && issue.expected === "string" && typeof value === "number")
    return `expected text${got}: write it in quotes, "${excerpt(written?.(issue.path) ?? plainNumber(value))}"`;
  if (issue.code === "invalid_type") return `expected ${issue.expected}${got}`;
  if (!ZOD_WORDING.test(issue.message)) return issue.message;
  if (issue.code === "invalid_format")
    return `${FORMATS[issue.format] ?? "has the wrong form"}${got}`;
  if (issue.code === "invalid_value")
    return `must be ${issue.values.length === 1 ? "" : "one of "}${issue.values.map((v) => JSON.stringify(v)).join(", ")}${got}`;
  if (issue.code === "too_small" || issue.code === "too_big") {
    const bound = issue.code === "too_small" ? issue.minimum : issue.maximum;
    const word = issue.code === "too_small" ? "least" : "most";
    const limit = issue.inclusive
      ? `at ${word} ${bound}`
      : `${word === "least" ? "more" : "less"} than ${bound}`;
    if (issue.origin === "string")
      return Number(bound) === 1 && issue.code === "too_small"
        ? "must not be empty"
        : `must have ${limit} ${nounFor(Number(bound), "character")}${got}`;
    if (issue.origin === "array") return `must have ${limit} ${nounFor(Number(bound), "item")}`;
    if (bound === INT32_MAX && word === "most")
      return `must be ${INT32_RANGE}${got}: ${INT32_REASON}`;
    return `must be ${limit}${got}`;
  }
  return issue.message;
}

const ZOD_WORDING = /^(Too small|Too big|Invalid)\b/;

// A number as a spreadsheet's CSV export writes a long one (read-csv keeps it as text).
const SCIENTIFIC = /^[-+]?(\d+\.?\d*|\.\d+)[eE][-+]?\d+$/;

// A number as a spreadsheet set to a European locale writes it ("45,1913"); kept as text by read-csv.
const DECIMAL_COMMA = /^[-+]?\d+,\d+$/;
// Three digits after it: as well a thousands separator ("1,000" stands), which read as a decimal
// comma would become another number, and a whole one at that (1.000 stands is 1).
const THOUSANDS = /^[-+]?\d{1,3},\d{3}$/;

// What a value of each format zod checks looks like (of a pattern, only that it has the wrong form).
const FORMATS: Record<string, string> = {
  email: "must be an email address, e.g. opendata@example.org",
  datetime: "must be a UTC date and time, e.g. 2025-02-08T16:44:06Z",
  url: "must be a URL, e.g. https://example.org",
};

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let value = raw;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** A bad value as it was written, cut short: neither a 200 MB string nor a deep nesting is echoed whole. */
function shortJson(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(excerpt(value));
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object" && value !== null) return "an object";
  return excerpt(String(value));
}
