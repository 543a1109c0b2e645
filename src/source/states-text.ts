// A states file split into its records' texts, compared with the last accepted file's: a record
// whose text is the same at the same place is known without parsing it; the others are parsed one
// by one. Only the layout `{"states": [ {...}, {...} ]}`; anything else is the whole-file parser's.

import { givesKeyTwice, stringEnd } from "./duplicate-keys.js";

export interface StatesText {
  /** Each record's text, in file order. */
  texts: string[];
  /** Each record parsed, or undefined where its text is the previous file's at the same place. */
  raw: unknown[];
}

const SPACE = 32;
const TAB = 9;
const NEW_LINE = 10;
const RETURN = 13;
const QUOTE = 34;
const COMMA = 44;
const COLON = 58;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/**
 * The records of `text`, or undefined when it is not laid out as `{"states": [ objects ]}` or a
 * record that changed is not valid JSON: the caller then parses the whole file, which says where
 * it is wrong. When the glue between the records is right and each record is valid JSON (parsed
 * now, or the same text as a record accepted before), the whole text is the JSON parsed so.
 */
export function splitStatesText(
  text: string,
  previous: readonly string[] = [],
): StatesText | undefined {
  const texts: string[] = [];
  const raw: unknown[] = [];
  let at = afterHeader(text);
  if (at < 0) return undefined;
  if (text.charCodeAt(at) !== CLOSE_BRACKET) {
    for (;;) {
      if (text.charCodeAt(at) !== OPEN_BRACE) return undefined;
      const before = previous[texts.length];
      let end: number;
      let value: unknown;
      // (A slice compared whole is ten times as fast as startsWith at an offset.)
      // A slice of this text, not the previous one's: no file's text outlives the next read.
      let own = before === undefined ? undefined : text.slice(at, at + before.length);
      if (own !== undefined && own === before) end = at + own.length;
      else {
        const record = parseRecordAt(text, at);
        if (!record) return undefined;
        [end, value] = record;
        own = text.slice(at, end);
      }
      texts.push(own);
      raw.push(value);
      at = skipSpace(text, end);
      const next = text.charCodeAt(at);
      if (next === CLOSE_BRACKET) break;
      if (next !== COMMA) return undefined;
      at = skipSpace(text, at + 1);
    }
  }
  return atEnd(text, at) ? { texts, raw } : undefined;
}

/**
 * The records' texts of a file already parsed whole without error, by their brackets (exact on
 * valid JSON); undefined when it is not laid out as `{"states": [ objects ]}`.
 */
export function recordTexts(text: string): string[] | undefined {
  const texts: string[] = [];
  let at = afterHeader(text);
  if (at < 0) return undefined;
  if (text.charCodeAt(at) !== CLOSE_BRACKET) {
    for (;;) {
      if (text.charCodeAt(at) !== OPEN_BRACE) return undefined;
      const end = objectEnd(text, at);
      if (end < 0) return undefined;
      texts.push(text.slice(at, end));
      at = skipSpace(text, end);
      const next = text.charCodeAt(at);
      if (next === CLOSE_BRACKET) break;
      if (next !== COMMA) return undefined;
      at = skipSpace(text, at + 1);
    }
  }
  return atEnd(text, at) ? texts : undefined;
}

/** Past `{ "states" : [` and the spaces after it, or -1. */
function afterHeader(text: string): number {
  let at = skipSpace(text, 0);
  for (const [code, word] of HEADER) {
    if (word ? !text.startsWith(word, at) : text.charCodeAt(at) !== code) return -1;
    at = skipSpace(text, at + (word ? word.length : 1));
  }
  return at;
}

/** `at` is the list's `]`, followed by `}` and nothing else. */
function atEnd(text: string, at: number): boolean {
  const brace = skipSpace(text, at + 1);
  return text.charCodeAt(brace) === CLOSE_BRACE && skipSpace(text, brace + 1) === text.length;
}

// `{ "states" : [`: a key written otherwise (escaped, other keys beside it) is the parser's.
const HEADER: readonly [number, string?][] = [
  [OPEN_BRACE],
  [QUOTE, '"states"'],
  [COLON],
  [OPEN_BRACKET],
];

/** JSON's whitespace, no other (JSON.parse refuses a no-break space between values). */
const isSpace = (code: number): boolean =>
  code === SPACE || code === NEW_LINE || code === RETURN || code === TAB;

function skipSpace(text: string, from: number): number {
  let at = from;
  while (isSpace(text.charCodeAt(at))) at++;
  return at;
}

/**
 * The record starting at `start`: its end and its value. Most files hold one record per line, so
 * the rest of the line is tried first; else the record is delimited by its brackets.
 */
function parseRecordAt(text: string, start: number): [number, unknown] | undefined {
  const line = text.indexOf("\n", start);
  let end = line < 0 ? text.length : line;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  if (text.charCodeAt(end - 1) === COMMA) end--;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  const value = parsed(text.slice(start, end));
  if (value !== UNPARSED) return [end, value];
  end = objectEnd(text, start);
  const delimited = end < 0 ? UNPARSED : parsed(text.slice(start, end));
  return delimited === UNPARSED ? undefined : [end, delimited];
}

// Also a record holding a key twice: JSON.parse keeps the last, silently; the whole read says where.
const UNPARSED = Symbol("not one JSON value");

function parsed(text: string): unknown {
  try {
    const value = JSON.parse(text);
    return givesKeyTwice(text, value) ? UNPARSED : value;
  } catch {
    return UNPARSED;
  }
}

/**
 * Where the object starting at `start` ends, by its brackets outside strings, or -1. It needs not
 * be right about invalid JSON: the text it delimits is parsed, and refused if it is not one value.
 */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  for (let at = start; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) {
      at = stringEnd(text, at);
      if (at < 0) return -1;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) depth++;
    else if ((code === CLOSE_BRACE || code === CLOSE_BRACKET) && --depth === 0) return at + 1;
  }
  return -1;
}
