// RFC 4180 CSV (UTF-8, header row, CRLF, quoted where needed), produced in batches of rows.
import { stringify } from "csv-stringify/sync";
import { type Encode, encodedTogether } from "../encoded-together.js";
import type { Cell, Table } from "./tables.js";

const BATCH = 10_000;

const options = {
  record_delimiter: "windows",
  // A cell holding a line break of its own is quoted too: csv-stringify quotes only the record
  // delimiter (CRLF), and a bare LF split the row for every reader, velodata's own included. So is
  // one with spaces at an end, which readers that trim unquoted cells (velodata's) would lose.
  quoted_match: /[\r\n]|^\s|\s$/,
  cast: {
    // csv-stringify writes booleans as "1" and ""; people and Table Schema expect true/false.
    boolean: (value: boolean) => (value ? "true" : "false"),
    number: plainNumber,
  },
} as const;

/**
 * A number as people and spreadsheets write it: JavaScript writes -0.0000005 as `-5e-7`, which
 * velodata's own reader refuses as a spreadsheet's rounding (and Table Schema's `number` as text).
 */
function plainNumber(value: number): string {
  const text = String(value);
  const written = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!written) return text;
  const [, sign, lead, rest = "", exponent] = written as unknown as [
    string,
    string,
    string,
    string,
    string,
  ];
  const digits = lead + rest;
  const point = 1 + Number(exponent); // where the decimal point falls in `digits`
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + "0".repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

function cellText(cell: Cell): string | number | boolean {
  if (cell === null) return "";
  // Table Schema's `array` type: the cell holds a JSON array.
  if (Array.isArray(cell)) return JSON.stringify(cell);
  return cell as string | number | boolean;
}

/**
 * The CSV of a table as chunks, so a million rows never become one string; `encode` makes each
 * chunk's bytes (see encoded-together.ts).
 */
export function csvChunks<T>(
  table: Table<T>,
  records: readonly T[],
  encode: Encode = encodedTogether,
): Buffer[] {
  const header = table.columns.map((column) => column.name);
  const chunks: Buffer[] = [Buffer.from(stringify([header], options), "utf8")];
  for (let start = 0; start < records.length; start += BATCH) {
    const rows = records
      .slice(start, start + BATCH)
      .map((record) => table.columns.map((column) => cellText(column.value(record))));
    chunks.push(...encode([stringify(rows, options)]));
  }
  return chunks;
}
