// Reads a JSON source file `{ "<key>": [ ...records ] }` into raw records, with located syntax errors.
import { excerpt } from "../errors.js";
import { duplicateKeys, givesKeyTwice, type KeyPath } from "./duplicate-keys.js";
import { sourceSyntaxError } from "./json-syntax-error.js";
import { jsonNumberTexts } from "./number-texts.js";
import type { RawRecord } from "./parse-records.js";
import { error, type Problem, recordLabel, warning } from "./problems.js";
import { readSourceText } from "./read-text.js";

export async function readJsonRecords(
  path: string,
  file: string,
  key: string,
): Promise<{ records: RawRecord[]; problems: Problem[] }> {
  const read = await readSourceText(path, file);
  if ("problem" in read) return { records: [], problems: [read.problem] };
  const { text } = read;
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (cause) {
    const { line, message } = sourceSyntaxError(text, cause);
    const at = line === undefined ? { file } : { file, line };
    return { records: [], problems: [error(at, undefined, message)] };
  }
  const list = (document as Record<string, unknown> | null)?.[key];
  if (typeof document !== "object" || document === null || !Array.isArray(list)) {
    const message = `must be an object with an array "${key}": { "${key}": [ ... ] }`;
    return { records: [], problems: [error({ file }, undefined, message)] };
  }
  const twice = givesKeyTwice(text, document)
    ? duplicateKeys(text).map((path) => keyGivenTwice(file, key, list, path))
    : [];
  // The list itself given twice: the records of the last are not the file's, refused as a whole.
  if (twice.some((problem) => problem.at.index === undefined && problem.field === key))
    return { records: [], problems: twice };
  const written = jsonNumberTexts(text, key);
  const records = list.map((raw, index) => ({ raw, at: { file, index }, written }));
  // Records are strict; beside the list a misspelt or misplaced field is said, not refused: an
  // exporter may add its own (a date, a version).
  const problems = Object.keys(document)
    .filter((field) => field !== key)
    .map((field) =>
      warning({ file }, excerpt(field), `is not read: only "${key}" is (a misplaced field?)`),
    );
  return { records, problems: [...twice, ...problems] };
}

/** A key given twice at `path`: in a record of the list under `key`, or beside it in the file. */
function keyGivenTwice(file: string, key: string, list: unknown[], path: KeyPath): Problem {
  const [top, index, ...field] = path;
  const inRecord = top === key && typeof index === "number" && field.length > 0;
  const where = inRecord ? "record" : "file";
  const message = `is given twice in the ${where} (JSON would silently keep the last one): keep one; an export mapping two columns to one field?`;
  if (!inRecord) return error({ file }, excerpt(path.join(".")), message);
  const label = recordLabel(list[index]);
  const at = label === undefined ? { file, index } : { file, index, label };
  return error(at, excerpt(field.join(".")), message);
}
