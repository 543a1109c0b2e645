// Free text published as it is, in JSON and in CSV (names, addresses, cities): a control character
// (a NUL cuts the value short in sqlite, an ESC colours a reader's terminal) or half of a UTF-16
// pair (no UTF-8 can carry it: the CSV gets U+FFFD where the JSON keeps `\ud83d`) is refused where
// it was written. Tabs and line breaks are text: CSV quotes them. A rule, not a zod refinement:
// those made every parse of the process ~2× slower.
import { escapeControls, excerpt } from "../../errors.js";
import { error, type Problem, type Sourced, warning } from "../problems.js";

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
// Half of a UTF-16 pair: a high surrogate not followed by a low one, or a low one not after a high.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// Either, tested at once: most text has neither, and a million stations' names are read.
const FLAWED = new RegExp(`${CONTROL.source}|${LONE_SURROGATE.source}`);

// UTF-8 read as Windows-1252 or Latin-1 and saved again (a spreadsheet opening a UTF-8 CSV as
// its locale's): each accented letter becomes Ã or Â and a second character (é → Ã©, à → Ã
// and a no-break space, ’ → â€™). Both rare in real names, together next to never.
const DOUBLE_ENCODED =
  /[ÃÂ][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc\u2013-\u203a\u20ac\u2122]|â€/;

// What a spreadsheet opening a CSV reads as a formula (OWASP's "CSV injection"): a cell starting
// with = + - or @, or with a tab or carriage return before one. `=HYPERLINK(…)` sends a reader's
// cells away on a click, `=cmd|…` runs a command in older Excel. The CSV downloads publish cells as
// the source gives them (the bundle's stations.csv is itself a source file): the maintainer is
// told, since such a name is next to never a place's, and more likely a feed tampered with.
const FORMULA_START = /^[=+\-@\t\r]/;

// Names, addresses and cities run to tens of characters: thousands are a broken export's.
const LONG_TEXT = 1_000;

/**
 * The `fields` of each record (text, or lists of text) hold nothing but publishable text; text
 * that looks encoded twice, is thousands of characters long, or a spreadsheet would read as a
 * formula, is a warning (published as given).
 */
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
      const twice = texts.find((text) => typeof text === "string" && DOUBLE_ENCODED.test(text));
      if (twice !== undefined) problems.push(warning(at, field, encodedTwice(twice)));
      // A list is one CSV cell of JSON text (`["Lyon"]`): its own first character is the cell's.
      if (typeof held === "string" && FORMULA_START.test(held))
        problems.push(warning(at, field, formulaLike(held)));
      const long = texts.find((text) => typeof text === "string" && text.length > LONG_TEXT);
      if (long !== undefined)
        problems.push(
          warning(
            at,
            field,
            `is ${long.length.toLocaleString("en")} characters long ("${long.slice(0, 40)}…"): a quote left open in the export, or a file pasted into a cell? published as given`,
          ),
        );
    }
  }
  return problems;
}

/** What text a spreadsheet reads as a formula says, its first characters shown (a tab as \x09). */
const formulaLike = (text: string): string =>
  `"${escapeControls(excerpt(text))}" starts as a formula does: a spreadsheet opening the CSV downloads runs it (CSV injection: it can send a reader's cells away, or start a command); check where it came from; published as given`;

/** What text encoded twice says, with what it meant when the bytes give it back. */
function encodedTwice(text: string): string {
  const said = `"${excerpt(text)}" looks like UTF-8 read as Windows-1252 or Latin-1 and saved again (a spreadsheet opening a UTF-8 CSV)`;
  const meant = windows1252Bytes(text)?.toString("utf8");
  return meant && !meant.includes("\ufffd")
    ? `${said}: "${excerpt(meant)}" meant? Export it again as UTF-8; published as given`
    : `${said}: export it again as UTF-8; published as given`;
}

/** The Windows-1252 bytes of `text`, or undefined when a character has none. */
function windows1252Bytes(text: string): Buffer | undefined {
  const bytes: number[] = [];
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    // ASCII and 0xa0-0xff are Latin-1's, which Windows-1252 shares.
    if (code < 0x80 || (code >= 0xa0 && code <= 0xff)) {
      bytes.push(code);
      continue;
    }
    const at = WINDOWS_1252.indexOf(char);
    if (at < 0) return undefined;
    bytes.push(0x80 + at);
  }
  return Buffer.from(bytes);
}

// Windows-1252's bytes 0x80-0x9f, in order (the five it leaves undefined, as Latin-1's controls).
const WINDOWS_1252 = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ";

function flawOf(text: string): string {
  const control = CONTROL.exec(text);
  if (control) return `holds a control character (${codePoint(control[0])}): remove it`;
  return "holds half of a character (a lone UTF-16 surrogate): the export broke an emoji or other character in two";
}

const codePoint = (char: string): string =>
  `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
