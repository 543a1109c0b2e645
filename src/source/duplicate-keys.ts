// Finds the keys given twice in an object of JSON text, which JSON.parse takes silently, keeping
// the last: an export that maps two columns to one field would publish the wrong one.

/** A key's place: the keys and list positions leading to it from the scanned value, then itself. */
export type KeyPath = (string | number)[];

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const COLON = 58;

// Past this many keys an object's are looked up in a set, below in a list (records are small).
const LISTED_KEYS = 16;

/**
 * Whether the JSON text between `start` and `end`, which JSON.parse made `value` of, gives a key
 * twice: it writes more keys than `value` holds. Cheap (no text made, strings jumped over by
 * indexOf), for a minute's changed records and whole files; duplicateKeys then says which.
 */
export function givesKeyTwice(text: string, value: unknown, start = 0, end = text.length): boolean {
  return keysWritten(text, start, end) !== keysHeld(value);
}

/** The strings followed by a colon: in valid JSON, the keys. */
function keysWritten(text: string, start: number, end: number): number {
  let count = 0;
  let quote = text.indexOf('"', start);
  while (quote >= 0 && quote < end) {
    let after = stringEnd(text, quote) + 1;
    while (isSpace(text.charCodeAt(after))) after++;
    if (text.charCodeAt(after) === COLON) count++;
    quote = text.indexOf('"', after);
  }
  return count;
}

/**
 * The keys of every object in `value`, each counted once (JSON.parse kept one of each). With a
 * list of values still to count, not recursion: a source nested thousands deep must get its
 * "wrong type" error, not overflow the stack.
 */
function keysHeld(value: unknown): number {
  let count = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next !== "object" || next === null) continue;
    if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
      continue;
    }
    for (const key in next) {
      count++;
      pending.push((next as Record<string, unknown>)[key]);
    }
  }
  return count;
}

const isSpace = (code: number): boolean => code === 32 || code === 10 || code === 13 || code === 9;

interface Level {
  /** A list's position of the current item; -1 for an object. */
  item: number;
  /** An object's keys so far (the last is the current one's). */
  keys: string[];
  seen?: Set<string>;
  /** An object is between a `{` or `,` and its next key. */
  keyNext: boolean;
}

/**
 * Each key given twice (or more: once for each repeat) in the JSON value `text` holds between
 * `start` and `end`, with its path. The text must be valid JSON there (JSON.parse took it): only
 * brackets, commas and strings are read.
 */
export function duplicateKeys(text: string, start = 0, end = text.length): KeyPath[] {
  const found: KeyPath[] = [];
  const levels: Level[] = [];
  let level: Level | undefined;
  for (let at = start; at < end; at++) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) {
      const close = stringEnd(text, at);
      if (level?.keyNext) {
        const key = keyOf(text, at + 1, close);
        if (isSeen(level, key)) found.push([...pathTo(levels), key]);
        level.keys.push(key);
        level.seen?.add(key);
        level.keyNext = false;
      }
      at = close;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      level = { item: code === OPEN_BRACE ? -1 : 0, keys: [], keyNext: code === OPEN_BRACE };
      levels.push(level);
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      levels.pop();
      level = levels[levels.length - 1];
    } else if (code === COMMA && level) {
      if (level.item < 0) level.keyNext = true;
      else level.item++;
    }
  }
  return found;
}

function isSeen(level: Level, key: string): boolean {
  if (level.seen) return level.seen.has(key);
  if (level.keys.length >= LISTED_KEYS) {
    level.seen = new Set(level.keys);
    return level.seen.has(key);
  }
  return level.keys.includes(key);
}

/** Where the levels stand: each object's current key, each list's current position. */
function pathTo(levels: readonly Level[]): KeyPath {
  return levels
    .slice(0, -1)
    .map((level) => (level.item < 0 ? (level.keys[level.keys.length - 1] as string) : level.item));
}

/** The key as JSON reads it: `"na\u006de"` is `"name"`. */
function keyOf(text: string, from: number, to: number): string {
  const raw = text.slice(from, to);
  return raw.includes("\\") ? (JSON.parse(`"${raw}"`) as string) : raw;
}

/**
 * The closing quote of the string opening at `start`: the first not escaped by a backslash; -1
 * when there is none (never in text JSON.parse took; the states file's splitter reads any text).
 */
export function stringEnd(text: string, start: number): number {
  let quote = text.indexOf('"', start + 1);
  while (quote >= 0) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  return -1;
}
