// Numbers as a file writes them, for messages: JSON.parse and Number() keep a double, which shows
// 12345678901234567890123 as 1.2345678901234568e+22. Found only when a message needs one.
import { stringEnd } from "./duplicate-keys.js";

/** The text a number is written with at a path of a record (`["mainStands", "bikes"]`). */
export type NumberText = (path: readonly PropertyKey[]) => string | undefined;

/** The same for the records of one file, by their index: one for the file, none per record. */
export type FileNumberTexts = (
  index: number | undefined,
  path: readonly PropertyKey[],
) => string | undefined;

/**
 * The texts of the numbers of `text` (JSON, its records in the list under `key`) that read back
 * otherwise: scanned once, at the first question, so that a valid file costs nothing.
 */
export function jsonNumberTexts(text: string, key: string): FileNumberTexts {
  let found: Map<string, string> | undefined;
  return (index, path) => {
    found ??= numbersReadOtherwise(text);
    return found.get([key, index, ...path].join("\u0000"));
  };
}

/** A number as digits, never in exponent form: for one no text is known of. */
export function plainNumber(value: number): string {
  if (!Number.isFinite(value) || !/e/i.test(String(value))) return String(value);
  if (Number.isInteger(value))
    return `a ${BigInt(value).toString().replace("-", "").length}-digit number`;
  return value.toFixed(20).replace(/\.?0+$/, "");
}

interface Level {
  /** A list's position of the current item; -1 for an object. */
  item: number;
  key: string;
  keyNext: boolean;
}

const NUMBER_START = /[-0-9]/;
const NUMBER_CHAR = /[-+.eE0-9]/;

function numbersReadOtherwise(text: string): Map<string, string> {
  const found = new Map<string, string>();
  const levels: Level[] = [];
  let level: Level | undefined;
  for (let at = 0; at < text.length; at++) {
    const char = text[at] as string;
    if (char === '"') {
      const close = stringEnd(text, at);
      if (close < 0) break;
      if (level?.keyNext) {
        level.key = JSON.parse(text.slice(at, close + 1)) as string;
        level.keyNext = false;
      }
      at = close;
    } else if (char === "{" || char === "[") {
      level = { item: char === "{" ? -1 : 0, key: "", keyNext: char === "{" };
      levels.push(level);
    } else if (char === "}" || char === "]") {
      levels.pop();
      level = levels[levels.length - 1];
    } else if (char === "," && level) {
      if (level.item < 0) level.keyNext = true;
      else level.item++;
    } else if (NUMBER_START.test(char)) {
      let end = at + 1;
      while (end < text.length && NUMBER_CHAR.test(text[end] as string)) end++;
      const written = text.slice(at, end);
      if (String(Number(written)) !== written)
        found.set(levels.map((one) => (one.item < 0 ? one.key : one.item)).join("\u0000"), written);
      at = end - 1;
    }
  }
  return found;
}
