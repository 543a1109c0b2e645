// Reads a CSV source file (header row, UTF-8) into raw records typed after the zod schema's fields.
import type { parse as CsvParse } from "csv-parse/sync";
import type { z } from "zod";
import { excerpt } from "../errors.js";
import { counted } from "../plural.js";
import {
  type CellKind,
  type Column,
  checkHeader,
  namedCount,
  SEPARATOR_NAMES,
  type Separator,
  unnamedColumn,
} from "./csv-header.js";
import { csvSyntaxProblem, UNCLOSED_QUOTE } from "./csv-syntax.js";
import type { RawRecord } from "./parse-records.js";
import { error, type Problem } from "./problems.js";
import { readSourceText } from "./read-text.js";
import { totalWord } from "./total-row.js";

export async function readCsvRecords(
  path: string,
  file: string,
  schema: z.ZodObject,
): Promise<{ records: RawRecord[]; problems: Problem[] }> {
  const read = await readSourceText(path, file);
  if ("problem" in read) return { records: [], problems: [read.problem] };
  const { text } = read;
  // Loaded only for a CSV source: a cron refresh, which reads no station file, never loads it.
  const { parse } = await import("csv-parse/sync");
  const columns = columnsOf(schema);
  const separator = separatorOf(parse, text);
  const header = headerOf(parse, text, separator);
  const problems = header ? checkHeader(file, header, columns, separator) : [];
  if (problems.length > 0) return { records: [], problems };
  let rows: { record: string[]; info: { bytes: number } }[];
  try {
    // Rows as arrays, of any length: each row with a cell too many or too few is said, not only
    // the first (csv-parse stops there).
    rows = parse(text, {
      delimiter: separator,
      relax_column_count: true,
      info: true,
      bom: true,
      // Each line's own end: a CRLF export with rows added in an editor that writes LF is read
      // whole, not as one record of every row. As startLines counts them.
      record_delimiter: ["\r\n", "\n", "\r"],
      skip_empty_lines: true,
      trim: true,
    }) as unknown as typeof rows; // its types know `info` only beside `columns`
  } catch (cause) {
    // Said where csv-parse says, but for a quote opening a cell: a cell may run on over lines, so
    // the parser notices a runaway one only lines later, where the next quote closes it.
    const unclosed =
      (cause as { code?: unknown }).code === "INVALID_OPENING_QUOTE"
        ? null
        : unclosedQuoteLine(text, (rows) => {
            try {
              // A quote out of place elsewhere in the row is not this cell's: said as itself.
              const read: string[][] = parse(rows, {
                delimiter: separator,
                relax_column_count: true,
                relax_quotes: true,
                record_delimiter: ["\r\n", "\n", "\r"],
              });
              return read.length === 1 && read[0]?.length === header?.length;
            } catch {
              return false;
            }
          });
    // Text after a closing quote on the very line the parser stopped at ("A "B" C"): the quote
    // closed; its line's odd count of quotes is no quote left open.
    const { code, lines: stoppedAt } = cause as { code?: unknown; lines?: unknown };
    const closedThere = CLOSING_QUOTE_CODES.has(String(code)) && stoppedAt === unclosed;
    const problem =
      unclosed && !closedThere
        ? error({ file, line: unclosed }, undefined, UNCLOSED_QUOTE)
        : csvSyntaxProblem(file, cause, header);
    return { records: [], problems: [problem] };
  }
  const names = (rows.shift()?.record ?? []) as string[];
  // Columns past the last named one: a spreadsheet's export of columns once formatted, carrying
  // nothing, when every row has them too (their cells then must be empty); else a separator too
  // many at the header's end, said as such.
  const named = namedCount(names);
  const numberColumn = names.indexOf("number");
  const short = rows.some(({ record }) => record.length < names.length && !blank(record));
  if (named < names.length && short)
    return { records: [], problems: [unnamedColumn(file, named, separator, true)] };
  const lines = startLines(
    text,
    rows.map(({ info }) => info.bytes),
  );
  const records: RawRecord[] = [];
  // The number cells that read back otherwise (past 15 digits, "1.50"), for messages.
  const otherwise = new Map<string, string>();
  const written = (index: number | undefined, [name]: readonly PropertyKey[]) =>
    otherwise.get(`${index}:${String(name)}`);
  rows.forEach(({ record }, index) => {
    // A row of empty cells only (",,,,"), which a spreadsheet exports for rows once used, is an
    // empty line: nothing in it to publish.
    if (blank(record)) return;
    const at = { file, index, line: lines[index] as number };
    const total = totalWord(record, numberColumn);
    // Two exports joined, each with its header: one error, not one per cell of it.
    if (isHeader(record, names))
      problems.push(error(at, undefined, "repeats the header row (files joined?): remove it"));
    else if (total !== undefined)
      problems.push(
        error(
          at,
          undefined,
          `is a total line ("${excerpt(total)}"), not a record: delete it from the export`,
        ),
      );
    else if (record.length === names.length) {
      const unnamed = record.findIndex((cell, column) => column >= named && cell !== "");
      if (unnamed >= 0) {
        problems.push(
          error(
            at,
            `column ${unnamed + 1}`,
            `holds "${excerpt(record[unnamed] as string)}" under no name in the header: name the column there, or leave its cells empty`,
          ),
        );
        return;
      }
      const cells = Object.fromEntries(
        names.slice(0, named).map((name, column) => [name, record[column] as string]),
      );
      const raw = typedRow(cells, columns, separator, (name, text) =>
        otherwise.set(`${index}:${name}`, text),
      );
      const number = otherwise.get(`${index}:number`);
      records.push({
        raw,
        at: number === undefined ? at : { ...at, writtenNumber: number },
        written,
      });
    } else
      problems.push(
        error(
          at,
          undefined,
          `has ${counted(record.length, "cell")} where the header has ${names.length}: ${whyNotAsMany(record, names, columns, separator)}`,
        ),
      );
  });
  // The rows read whole are checked too, so that one run says every error: the file is not
  // read whole, so nothing is checked against what its broken rows may have held.
  return { records, problems };
}

function columnsOf(schema: z.ZodObject): Map<string, Column> {
  const columns = new Map<string, Column>();
  for (const [name, field] of Object.entries(schema.shape)) {
    let type = field as z.ZodType;
    let required = true;
    // Look through optional/nullable/default to the cell's own type.
    while (["optional", "nullable", "default"].includes(type.def.type)) {
      required = false;
      type = (type.def as unknown as { innerType: z.ZodType }).innerType;
    }
    const kind: CellKind =
      type.def.type === "number" ? "number" : type.def.type === "boolean" ? "boolean" : "text";
    const fractional = kind === "number" && !(type as { isInt?: boolean }).isInt;
    columns.set(name, { kind, required, fractional });
  }
  return columns;
}

/**
 * ";" when the header reads as one cell holding a ";", or reads as no CSV at all with "," but as
 * several cells with ";": a quoted header cell (a name on two lines, Alt+Enter in a French or
 * German Excel) has a ";" right after its closing quote, which "," takes for text after it.
 */
function separatorOf(parse: typeof CsvParse, text: string): Separator {
  const header = headerOf(parse, text, ",");
  if (header?.length === 1 && header[0]?.includes(";")) return ";";
  if (header !== null) return ",";
  return (headerOf(parse, text, ";")?.length ?? 0) > 1 ? ";" : ",";
}

/**
 * The header row, or null when it is not even CSV (the full parse then says why). Its first
 * record, not its first line: a spreadsheet's header cell may hold a line break (Alt+Enter in
 * Excel), and line 1 alone then read as no header at all, every column said missing.
 */
function headerOf(parse: typeof CsvParse, text: string, separator: Separator): string[] | null {
  try {
    const rows: string[][] = parse(text, {
      delimiter: separator,
      to: 1,
      bom: true,
      trim: true,
    });
    return rows[0] ?? [];
  } catch {
    return null;
  }
}

/**
 * The row is the header again, in any case, with the BOM of the file it came from (Excel's "CSV
 * UTF-8" writes one): a data row differs at its first cell, so no row is joined or copied whole.
 */
const isHeader = (record: readonly string[], names: readonly string[]): boolean =>
  record.length === names.length &&
  record.every(
    (cell, at) =>
      (at === 0 ? cell.replace(/^\uFEFF/, "") : cell).toLowerCase() === names[at]?.toLowerCase(),
  );

// csv-parse's codes for text after the quote that closes a cell.
const CLOSING_QUOTE_CODES = new Set([
  "CSV_INVALID_CLOSING_QUOTE",
  "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE",
]);

/** Why a row has another count of cells than the header has columns, as far as its cells say. */
function whyNotAsMany(
  record: readonly string[],
  names: readonly string[],
  columns: ReadonlyMap<string, Column>,
  separator: Separator,
): string {
  const named = SEPARATOR_NAMES[separator];
  if (record.length < names.length)
    return `a cell left out (every column needs its ${named}, even when empty)?`;
  // Where cells are parted by ";", a decimal comma splits nothing.
  const split = separator === "," ? decimalCommas(record, names, columns) : undefined;
  if (split) return split;
  const inside = `a ${named} inside a cell not in quotes ("a${separator} b")`;
  const shifted = shiftedFrom(record, names, columns);
  if (shifted) return `${inside}, before ${shifted}: the cells from there on are one column off`;
  // A spreadsheet's export of columns once used, or of a header shortened since.
  if (record.slice(names.length).every((cell) => cell === ""))
    return `the cells past the header's columns are empty: ${named}s too many at the end of the line?`;
  return `${inside}?`;
}

/**
 * The first number column whose cell is no number while the cell as many places on, where a
 * comma too many inside an earlier cell pushed it, is one: `latitude` for `GARE, PART-DIEU` left
 * unquoted. Undefined when the cells sit where their columns say.
 */
function shiftedFrom(
  record: readonly string[],
  names: readonly string[],
  columns: ReadonlyMap<string, Column>,
): string | undefined {
  const extra = record.length - names.length;
  const isNumber = (cell: string | undefined) => cell !== undefined && NUMBER.test(cell);
  return names.find(
    (name, at) =>
      columns.get(name)?.kind === "number" && !isNumber(record[at]) && isNumber(record[at + extra]),
  );
}

/**
 * A spreadsheet in a French or German locale writes 53,35 for 53.35: unquoted, each such number
 * is two cells. Said when joining the cells of numbers with decimals, left to right, gives the
 * header's count; undefined otherwise.
 */
function decimalCommas(
  record: readonly string[],
  names: readonly string[],
  columns: ReadonlyMap<string, Column>,
): string | undefined {
  const cells = [...record];
  const joined: string[] = [];
  for (let at = 0; at < names.length && cells.length > names.length; at++) {
    const [whole, decimals] = [cells[at] ?? "", cells[at + 1] ?? ""];
    if (!columns.get(names[at] as string)?.fractional) continue;
    if (!/^-?\d+$/.test(whole) || !/^\d+$/.test(decimals)) continue;
    joined.push(`${names[at]} "${whole},${decimals}" (write ${whole}.${decimals})`);
    cells.splice(at, 2, `${whole}.${decimals}`);
  }
  if (joined.length === 0 || cells.length !== names.length) return undefined;
  return `a decimal comma, not in quotes, splits ${joined.join(" and ")}: numbers are written with a point`;
}

const blank = (record: readonly string[]): boolean => record.every((cell) => cell === "");

const LF = 0x0a;
const CR = 0x0d;

/**
 * The line each record starts on, from where each ends (csv-parse's `info.bytes`: UTF-8 bytes, a
 * BOM included). Its `info.lines` is the line a record ends on, and counts a CRLF inside a quoted
 * cell as two lines. A line ends with LF, CRLF or a lone CR, as csv-parse reads them.
 */
function startLines(text: string, ends: readonly number[]): number[] {
  const bytes = Buffer.from(text);
  const isBreak = (at: number) => bytes[at] === LF || bytes[at] === CR;
  let line = 1;
  let at = 0;
  const countTo = (until: number) => {
    for (; at < until; at++)
      if (bytes[at] === LF || (bytes[at] === CR && bytes[at + 1] !== LF)) line++;
  };
  // The first record follows the header's line, whose cells hold no line break.
  let start = 0;
  while (start < bytes.length && !isBreak(start)) start++;
  const lines: number[] = [];
  for (const end of ends) {
    while (start < bytes.length && isBreak(start)) start++; // its line break, and empty lines
    countTo(start);
    lines.push(line);
    start = end;
  }
  return lines;
}

/**
 * The first line with an odd count of quotes, when the parse failed: that is where a quoted cell
 * runs away (the parser only notices lines later). A cell may hold line breaks (an address on two
 * lines): a line with an odd count that, with the next such line, makes one whole row is such a
 * cell, opened and closed, and is passed over.
 */
function unclosedQuoteLine(text: string, isOneRow: (rows: string) => boolean): number | null {
  const lines = text.split("\n");
  const odd: number[] = [];
  for (let at = 0; at < lines.length; at++) {
    const quotes = (lines[at] as string).split('"').length - 1;
    if (quotes % 2 === 1) odd.push(at);
  }
  for (let pair = 0; pair < odd.length; pair += 2) {
    const open = odd[pair] as number;
    const close = odd[pair + 1];
    if (close === undefined || !isOneRow(lines.slice(open, close + 1).join("\n"))) return open + 1;
  }
  return null;
}

// No exponent: a spreadsheet shows a long number as 1.23457E+14, and exports it so, rounded. Such
// a cell stays text, so it is refused (parse-records says why), never read as another number.
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)$/;
const DECIMAL_COMMA = /^[-+]?\d*,\d+$/;
// A count whose cell is formatted with decimals: "20.0" in a "," file, "20,0" in a ";" one. Both
// are read as the whole number, as JSON reads 20.0: refusing the one and taking the other made the
// locale of the spreadsheet decide. Not three zeros after at most three digits: "1,000" may as
// well part thousands (1000), so it stays for parse-records to say.
const ZERO_DECIMALS = /^[-+]?(?!\d{1,3},000$)\d+,0+$/;

/** Cells are text; give zod numbers and booleans where the schema wants them. Bad cells stay text so zod names them. */
function typedRow(
  record: Record<string, string>,
  columns: Map<string, Column>,
  separator: Separator,
  readsOtherwise: (name: string, cell: string) => void,
): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(record)) {
    const column = columns.get(name);
    const kind = column?.kind;
    // csv-parse trims spaces and tabs only; a no-break space (U+00A0, which spreadsheets in a
    // French locale write in numbers) left around a number or a boolean is as unseen.
    const trimmed = kind === "text" ? text : text.trim();
    // An empty number or boolean cell is an absent value (overflowCapacity); empty text is text.
    if (trimmed === "" && kind !== "text") continue;
    // Cells parted by ";" come with decimal commas (45,68): a number with decimals may have one,
    // and so may a whole one with zero decimals (see ZERO_DECIMALS). Any other comma of a whole
    // number stays, for parse-records to say (a count of "1,005" is no number).
    const cell =
      separator === ";" &&
      DECIMAL_COMMA.test(trimmed) &&
      (column?.fractional || (kind === "number" && ZERO_DECIMALS.test(trimmed)))
        ? trimmed.replace(",", ".")
        : trimmed;
    if (kind === "number" && NUMBER.test(cell)) {
      row[name] = Number(cell);
      // Quoted as the file writes it: "52,0", not the "52.0" it was read as.
      if (String(row[name]) !== cell) readsOtherwise(name, trimmed);
    } else if (kind === "boolean" && /^(true|false)$/i.test(cell))
      row[name] = cell.toLowerCase() === "true";
    else row[name] = cell;
  }
  return row;
}
