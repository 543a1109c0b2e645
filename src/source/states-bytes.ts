// A states file split into its records against the last accepted file's bytes and the size of each
// of its records (kept with it): a record whose bytes are the same at the same place is compared
// where it lies, no text made of it; only the others are decoded and parsed. The layouts and the
// refusals are splitStatesText's: `{"states": [ objects ]}`, anything else left to the whole read.

import { isAscii } from "node:buffer";
import { givesKeyTwice } from "./duplicate-keys.js";

/** The last accepted states file: its bytes and each of its records' size, in file order. */
export interface AcceptedBytes {
  bytes: Buffer;
  sizes: ArrayLike<number>;
}

export interface SplitBytes {
  /** Each record's size in bytes, in file order: kept with the file for the next read. */
  sizes: number[];
  /** The records that are not the accepted file's at the same place: their position and value. */
  changed: { index: number; raw: unknown }[];
}

const SPACE = 32;
const TAB = 9;
const NEW_LINE = 10;
const RETURN = 13;
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const HEADER = Buffer.from('"states"', "latin1");
const COLON = 58;

/**
 * The records of `bytes`, or undefined when they are not all ASCII (a BOM, names with accents,
 * not UTF-8: the whole read decodes them or says why not; records here are decoded as Latin-1),
 * not laid out as `{"states": [ objects ]}`, a record that changed is not valid JSON, or
 * `accepted` (all ASCII) does not describe its bytes. When the glue between the records is right
 * and each record is valid JSON (parsed now, or the same bytes as a record accepted before), the
 * whole file is the JSON so parsed.
 */
export function splitStatesBytes(bytes: Buffer, accepted?: AcceptedBytes): SplitBytes | undefined {
  if (!isAscii(bytes)) return undefined;
  const sizes: number[] = [];
  const changed: SplitBytes["changed"] = [];
  let at = afterHeader(bytes);
  if (at < 0) return undefined;
  const old = accepted?.bytes;
  let oldAt = old ? afterHeader(old) : -1;
  if (bytes[at] !== CLOSE_BRACKET) {
    for (;;) {
      if (bytes[at] !== OPEN_BRACE) return undefined;
      const index = sizes.length;
      const size = accepted?.sizes[index];
      let end: number;
      if (
        old &&
        size !== undefined &&
        oldAt >= 0 &&
        oldAt + size <= old.length &&
        at + size <= bytes.length &&
        old[oldAt] === OPEN_BRACE &&
        old[oldAt + size - 1] === CLOSE_BRACE &&
        bytes.compare(old, oldAt, oldAt + size, at, at + size) === 0
      )
        end = at + size;
      else {
        const record = parseRecordAt(bytes, at);
        if (!record) return undefined;
        end = record[0];
        changed.push({ index, raw: record[1] });
      }
      sizes.push(end - at);
      if (old && size !== undefined && oldAt >= 0) oldAt = nextRecord(old, oldAt + size);
      at = skipSpace(bytes, end);
      const next = bytes[at];
      if (next === CLOSE_BRACKET) break;
      if (next !== COMMA) return undefined;
      at = skipSpace(bytes, at + 1);
    }
  }
  return atEnd(bytes, at) ? { sizes, changed } : undefined;
}

/**
 * Each record's size in bytes, by its brackets (exact on valid JSON: the file was parsed whole
 * without error), or undefined when it is not laid out as `{"states": [ objects ]}`.
 */
export function recordSizes(bytes: Buffer): number[] | undefined {
  const sizes: number[] = [];
  let at = afterHeader(bytes);
  if (at < 0) return undefined;
  if (bytes[at] !== CLOSE_BRACKET) {
    for (;;) {
      if (bytes[at] !== OPEN_BRACE) return undefined;
      const end = objectEnd(bytes, at);
      if (end < 0) return undefined;
      sizes.push(end - at);
      at = skipSpace(bytes, end);
      const next = bytes[at];
      if (next === CLOSE_BRACKET) break;
      if (next !== COMMA) return undefined;
      at = skipSpace(bytes, at + 1);
    }
  }
  return atEnd(bytes, at) ? sizes : undefined;
}

/** Past a record's end, its comma and the spaces around it: the next record's start, or -1. */
function nextRecord(bytes: Buffer, end: number): number {
  const at = skipSpace(bytes, end);
  return bytes[at] === COMMA ? skipSpace(bytes, at + 1) : -1;
}

/** Past `{ "states" : [` and the spaces after it, or -1. */
function afterHeader(bytes: Buffer): number {
  let at = skipSpace(bytes, 0);
  if (bytes[at] !== OPEN_BRACE) return -1;
  at = skipSpace(bytes, at + 1);
  // A file cut short within the header ends before it: compare throws past the end of its bytes.
  if (at + HEADER.length > bytes.length) return -1;
  if (bytes.compare(HEADER, 0, HEADER.length, at, at + HEADER.length) !== 0) return -1;
  at = skipSpace(bytes, at + HEADER.length);
  if (bytes[at] !== COLON) return -1;
  at = skipSpace(bytes, at + 1);
  if (bytes[at] !== OPEN_BRACKET) return -1;
  return skipSpace(bytes, at + 1);
}

/** `at` is the list's `]`, followed by `}` and nothing else. */
function atEnd(bytes: Buffer, at: number): boolean {
  const brace = skipSpace(bytes, at + 1);
  return bytes[brace] === CLOSE_BRACE && skipSpace(bytes, brace + 1) === bytes.length;
}

/** JSON's whitespace, no other. */
const isSpace = (code: number | undefined): boolean =>
  code === SPACE || code === NEW_LINE || code === RETURN || code === TAB;

function skipSpace(bytes: Buffer, from: number): number {
  let at = from;
  while (isSpace(bytes[at])) at++;
  return at;
}

/**
 * The record starting at `start`: its end and its value. Most files hold one record per line, so
 * the rest of the line is tried first; else the record is delimited by its brackets.
 */
function parseRecordAt(bytes: Buffer, start: number): [number, unknown] | undefined {
  const line = bytes.indexOf(NEW_LINE, start);
  let end = line < 0 ? bytes.length : line;
  while (end > start && isSpace(bytes[end - 1])) end--;
  if (bytes[end - 1] === COMMA) end--;
  while (end > start && isSpace(bytes[end - 1])) end--;
  const value = parsed(bytes, start, end);
  if (value !== UNPARSED) return [end, value];
  end = objectEnd(bytes, start);
  const delimited = end < 0 ? UNPARSED : parsed(bytes, start, end);
  return delimited === UNPARSED ? undefined : [end, delimited];
}

// Also a record holding a key twice: JSON.parse keeps the last, silently; the whole read says where.
const UNPARSED = Symbol("not one JSON value");

function parsed(bytes: Buffer, start: number, end: number): unknown {
  try {
    const text = bytes.toString("latin1", start, end);
    const value = JSON.parse(text);
    return givesKeyTwice(text, value) ? UNPARSED : value;
  } catch {
    return UNPARSED;
  }
}

/**
 * Where the object starting at `start` ends, by its brackets outside strings, or -1. It needs not
 * be right about invalid JSON: the bytes it delimits are parsed, and refused if not one value.
 */
function objectEnd(bytes: Buffer, start: number): number {
  let depth = 0;
  for (let at = start; at < bytes.length; at++) {
    const code = bytes[at];
    if (code === QUOTE) {
      at = stringEnd(bytes, at);
      if (at < 0) return -1;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) depth++;
    else if ((code === CLOSE_BRACE || code === CLOSE_BRACKET) && --depth === 0) return at + 1;
  }
  return -1;
}

/** The closing quote of the string opening at `start`: the first not escaped by a backslash. */
function stringEnd(bytes: Buffer, start: number): number {
  let quote = bytes.indexOf(QUOTE, start + 1);
  while (quote >= 0) {
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = bytes.indexOf(QUOTE, quote + 1);
  }
  return -1;
}
