// Reads a JSON source file `{ "<key>": [ ...records ] }` into raw records, with located syntax errors.
import { excerpt } from "../errors.js";
import type { RawRecord } from "./parse-records.js";
import { error, type Problem, warning } from "./problems.js";
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
    return {
      records: [],
      problems: [error({ file, ...lineOf(text, cause) }, undefined, syntaxMessage(cause))],
    };
  }
  const list = (document as Record<string, unknown> | null)?.[key];
  if (typeof document !== "object" || document === null || !Array.isArray(list)) {
    const message = `must be an object with an array "${key}": { "${key}": [ ... ] }`;
    return { records: [], problems: [error({ file }, undefined, message)] };
  }
  const records = list.map((raw, index) => ({ raw, at: { file, index } }));
  // Records are strict; beside the list a misspelt or misplaced field is said, not refused: an
  // exporter may add its own (a date, a version).
  const problems = Object.keys(document)
    .filter((field) => field !== key)
    .map((field) =>
      warning({ file }, excerpt(field), `is not read: only "${key}" is (a misplaced field?)`),
    );
  return { records, problems };
}

function syntaxMessage(cause: unknown): string {
  const reason = cause instanceof Error ? cause.message : String(cause);
  // V8 says no more: a file cut short (copied while it was written, a disk that filled up).
  if (/^Unexpected end of JSON input/.test(reason))
    return "is not valid JSON: it ends before its JSON does (cut short? a copy made while it was written)";
  // V8 quotes the text around the error; a one-line 200 MB file would be quoted whole.
  return `is not valid JSON: ${excerpt(reason, 200)}`;
}

/** JSON.parse reports a character offset (none at the end of the text); people want a line. */
function lineOf(text: string, cause: unknown): { line?: number } {
  const reason = cause instanceof Error ? cause.message : "";
  const match = /position (\d+)/.exec(reason);
  const atEnd = /^Unexpected end of JSON input/.test(reason);
  if (!match && !atEnd) return {};
  const offset = match ? Number(match[1]) : text.trimEnd().length;
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return { line };
}
