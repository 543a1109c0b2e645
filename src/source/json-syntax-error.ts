// Why a text is not valid JSON and where, read from V8's error for someone who edited the file by
// hand: the source's JSON files and the keys file alike.
import { excerpt } from "../errors.js";

/** Where a text is not valid JSON (when that could be found) and what is wrong there, for people. */
export interface JsonSyntaxError {
  line?: number;
  column?: number;
  /** `unexpected "o"`, `"]" after a comma (…)`: V8's words read for someone who edited the file. */
  fault: string;
}

/**
 * JSON.parse's error `cause` for `text`, located and said for people: the source's JSON files and
 * the keys file are edited by hand alike. `fault` may quote V8's quote of the text around the
 * error, when nothing better is known.
 */
export function jsonSyntaxError(
  text: string,
  cause: unknown,
  { quotesText = true }: { quotesText?: boolean } = {},
): JsonSyntaxError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const at = offsetOf(text, reason) ?? (text.length <= MOST_BISECTED ? stopsAt(text) : undefined);
  return {
    ...lineAt(text, at),
    ...(at === undefined ? {} : { column: columnOf(text, at) }),
    fault: syntaxFault(text, reason, at, quotesText).fault,
  };
}

// Parsing a text's prefixes again and again is cheap for a file edited by hand, not a feed's.
const MOST_BISECTED = 1 << 20;

/**
 * Where JSON.parse stops in `text`, when V8 does not say (an unexpected token it only quotes the
 * text around, "garbage" quoted whole with two g's): a prefix that parses, or fails only at its
 * very end (cut inside a string, a word, a number), is the start of some JSON; the shortest one
 * that fails otherwise ends with the fault.
 */
function stopsAt(text: string): number | undefined {
  const fails = (length: number): boolean => {
    try {
      JSON.parse(text.slice(0, length));
      return false;
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      if (/^Unexpected end of JSON input/.test(reason)) return false;
      const position = /position (\d+)/.exec(reason);
      return position === null || Number(position[1]) < length;
    }
  };
  if (!fails(text.length)) return undefined;
  let [starts, stops] = [0, text.length];
  while (stops - starts > 1) {
    const middle = (starts + stops) >>> 1;
    if (fails(middle)) stops = middle;
    else starts = middle;
  }
  return stops - 1;
}

/**
 * A source file's syntax error: its line (the problem's place, when found) and its message, a
 * column only where the line alone would not tell. The file is not searched by parsing it again
 * (see stopsAt): a states file may be hundreds of megabytes, read every minute.
 */
export function sourceSyntaxError(
  text: string,
  cause: unknown,
): { line?: number; message: string } {
  const reason = cause instanceof Error ? cause.message : String(cause);
  // Found once: where V8 gives no offset, finding it searches the whole text.
  const at = offsetOf(text, reason);
  const { fault, column } = syntaxFault(text, reason, at);
  const message = `is not valid JSON${column && at !== undefined ? ` at column ${columnOf(text, at)}` : ""}: ${fault}`;
  return { ...lineAt(text, at), message };
}

/** What is wrong, and whether its column is worth saying beside its line. */
function syntaxFault(
  text: string,
  reason: string,
  at: number | undefined,
  quotesText = true,
): { fault: string; column: boolean } {
  const said = (fault: string, column = false) => ({ fault, column });
  // A CSV file (stations.csv given as --state): its header says so better than any token.
  const header = csvHeaderOf(text);
  if (header) return said(`it reads as CSV (its first line: ${header}): another file?`);
  // V8 says no more: a file cut short (copied while it was written, a disk that filled up). Cut
  // inside a string or a number, it says what it expected at the very end instead.
  if (
    /^Unexpected end of JSON input/.test(reason) ||
    (at !== undefined && at >= text.trimEnd().length)
  )
    return said("it ends before its JSON does (cut short? a copy made while it was written)");
  const quoted = quotedToken(reason);
  const closing = closedAfterComma(text, reason, quoted, at);
  if (closing) return said(`"${closing}" after a comma (JSON allows no comma after the last item)`);
  const comment = commentAt(text, quoted, at);
  if (comment)
    return said(
      `a ${comment} comment (JSON has no comments: remove it, or keep the note in a field of its own)`,
      true,
    );
  // Located, the line says where; else V8's quote of the text around it does.
  if (quoted && at !== undefined) return said(`unexpected ${JSON.stringify(quoted.token)}`);
  // "… in JSON at position 3089": an offset in the whole file, which beside a line reads as a column.
  const what = reason.replace(/ (?:in JSON )?at position \d+(?: \(line \d+ column \d+\))?$/, "");
  if (what !== reason && at !== undefined) {
    const hint = V8_HINTS.find(([pattern]) => pattern.test(what))?.[1];
    return said(`${what}${hint ? ` (${hint})` : ""}`, true);
  }
  // V8 quotes the text around the error; a one-line 200 MB file would be quoted whole. Where the
  // text may be secret (a key pasted into the keys file), V8's words before its quote only.
  if (!quotesText) return said(excerpt((reason.split('"')[0] ?? "").replace(/,\s*$/, ""), 100));
  return said(excerpt(reason, 200));
}

/** The first line of `text`, shortened, when it reads as a CSV header (names between commas). */
function csvHeaderOf(text: string): string | undefined {
  const end = text.indexOf("\n");
  const first = (end < 0 ? text : text.slice(0, end)).replace(/^\uFEFF/, "").trim();
  if (!/^"?[A-Za-z_][\w ]*"?(?:[,;]"?[A-Za-z_][\w ]*"?)+$/.test(first)) return undefined;
  // Its first three names are enough to tell the file.
  const three = /^(?:[^,;]*[,;]){3}/.exec(first)?.[0];
  return three ? `${three}…` : first;
}

const columnOf = (text: string, at: number): number => at - text.lastIndexOf("\n", at - 1);

/**
 * `//` or `/*` where the error is, from the file at its offset or V8's quote of the text: a note
 * left in a hand-edited file (JSON5 and most editors take them), whatever V8 expected there.
 */
function commentAt(
  text: string,
  quoted: ReturnType<typeof quotedToken>,
  at: number | undefined,
): "//" | "/*" | undefined {
  const from =
    at !== undefined
      ? text.slice(at, at + 2)
      : quoted?.at !== undefined
        ? quoted.snippet.slice(quoted.at, quoted.at + 2)
        : "";
  return from === "//" || from === "/*" ? from : undefined;
}

/** What V8's words mean for someone who edited the file by hand. */
const V8_HINTS: readonly (readonly [RegExp, string])[] = [
  [/^Expected property name/, "names and texts take double quotes in JSON, not single ones"],
  [/^Bad control character/, "a tab or line break inside a text: write it \\t or \\n"],
  [
    /^Unexpected non-whitespace character after JSON/,
    "text after the end of the JSON: two documents in one file?",
  ],
];

/**
 * The `]` or `}` of the mistake of a hand edit, a comma left after the last item of a list or an
 * object (for an object V8 says it expected a property name there), if that is the error: read
 * from V8's quote of the text where it can be told, else from the file at the error's offset.
 */
function closedAfterComma(
  text: string,
  reason: string,
  quoted: ReturnType<typeof quotedToken>,
  at: number | undefined,
): string | undefined {
  if (!quoted && !/^Expected double-quoted property name/.test(reason)) return undefined;
  const closing = quoted ? quoted.token : at === undefined ? undefined : text[at];
  if (closing !== "]" && closing !== "}") return undefined;
  const before =
    quoted?.at !== undefined
      ? quoted.snippet.slice(0, quoted.at)
      : at === undefined
        ? ""
        : text.slice(Math.max(0, at - 200), at);
  return /,\s*$/.test(before) ? closing : undefined;
}

/**
 * V8's "Unexpected token" message: the character, the text around it that it quotes (up to 10
 * characters either side, `...` where it cut; a short text whole) and where in that text the
 * character is, when that can be told: after exactly 10 characters where V8 cut before it, else the
 * only such character within the first 11, or in the whole text where it cut on neither side.
 */
function quotedToken(
  reason: string,
): { token: string; snippet: string; at: number | undefined } | undefined {
  const match = /^Unexpected token '(.)', (\.\.\.)?"([\s\S]*)"(\.\.\.)? is not valid JSON$/.exec(
    reason,
  );
  if (!match) return undefined;
  const [, token, cut, snippet, cutAfter] = match as unknown as [
    string,
    string,
    string | undefined,
    string,
    string | undefined,
  ];
  if (cut) return { token, snippet, at: 10 };
  const searched = cutAfter ? snippet.slice(0, 11) : snippet;
  const within = [...searched].flatMap((char, at) => (char === token ? [at] : []));
  return { token, snippet, at: within.length === 1 ? within[0] : undefined };
}

/**
 * The character offset of the error: V8 gives it for most errors; for an unexpected token, where
 * it only quotes the text around it, it is where that text is found, once, in the file.
 */
function offsetOf(text: string, reason: string): number | undefined {
  const position = /position (\d+)/.exec(reason);
  if (position) return Number(position[1]);
  if (/^Unexpected end of JSON input/.test(reason)) return text.trimEnd().length;
  const quoted = quotedToken(reason);
  if (!quoted || quoted.at === undefined) return undefined;
  const start = text.indexOf(quoted.snippet);
  if (start < 0 || text.indexOf(quoted.snippet, start + 1) >= 0) return undefined;
  return start + quoted.at;
}

/** JSON.parse reports a character offset (or text around it); people want a line. */
function lineAt(text: string, offset: number | undefined): { line?: number } {
  if (offset === undefined) return {};
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return { line };
}
