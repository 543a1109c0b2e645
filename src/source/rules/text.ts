// Free text published as it is, in JSON and in CSV (names, addresses, cities): a control character
// (a NUL cuts the value short in sqlite, an ESC colours a reader's terminal) or half of a UTF-16
// pair (no UTF-8 can carry it: the CSV gets U+FFFD where the JSON keeps `\ud83d`) is refused where
// it was written. Tabs and line breaks are text: CSV quotes them. A rule, not a zod refinement:
// those made every parse of the process ~2× slower.
import { error, type Problem, type Sourced } from "../problems.js";

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
// Half of a UTF-16 pair: a high surrogate not followed by a low one, or a low one not after a high.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// Either, tested at once: most text has neither, and a million stations' names are read.
const FLAWED = new RegExp(`${CONTROL.source}|${LONE_SURROGATE.source}`);

/** The `fields` of each record (text, or lists of text) hold nothing but publishable text. */
export function textPublishable<T>(
  records: readonly Sourced<T>[],
  fields: readonly (keyof T & string)[],
): Problem[] {
  const problems: Problem[] = [];
  for (const { value, at } of records) {
    for (const field of fields) {
      const held = value[field];
      const texts = Array.isArray(held) ? held : [held];
      const flawed = texts.find((text) => typeof text === "string" && FLAWED.test(text));
      if (flawed !== undefined) problems.push(error(at, field, flawOf(flawed)));
    }
  }
  return problems;
}

function flawOf(text: string): string {
  const control = CONTROL.exec(text);
  if (control) return `holds a control character (${codePoint(control[0])}): remove it`;
  return "holds half of a character (a lone UTF-16 surrogate): the export broke an emoji or other character in two";
}

const codePoint = (char: string): string =>
  `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
