// A CSV source file's header row: its names checked against the schema's columns, and the
// columns it leaves unnamed.
import { excerpt } from "../errors.js";
import { error, type Problem } from "./problems.js";
import { typosApart } from "./typos.js";

export type CellKind = "number" | "boolean" | "text";
export interface Column {
  kind: CellKind;
  required: boolean;
  /** A number with decimals (a coordinate), which a decimal comma splits in two cells. */
  fractional: boolean;
}

/**
 * What parts the cells: "," or, as a spreadsheet in a French or German locale exports them (Excel
 * takes its list separator from the system's region settings, with no option of its own), ";",
 * its numbers then written with a decimal comma. Told from the header: one cell holding ";".
 */
export type Separator = "," | ";";

/** How a message names the separator. */
export const SEPARATOR_NAMES: Record<Separator, string> = { ",": "comma", ";": "semicolon" };

/** `atEnd`: the column after the header's last name, else one between two names (or first). */
export const unnamedColumn = (file: string, index: number, separator: Separator, atEnd: boolean) =>
  error(
    { file, line: 1 },
    `column ${index + 1}`,
    `has no name in the header (a ${SEPARATOR_NAMES[separator]} too many${atEnd ? " at its end" : ""}?)`,
  );

/** The header's columns up to its last named one. */
export function namedCount(header: readonly string[]): number {
  let count = header.length;
  while (count > 0 && header[count - 1] === "") count--;
  return count;
}

/**
 * What is wrong with the header: Excel's separator line or tabs, unnamed or repeated columns,
 * unknown ones (a slip of a known one named), required ones missing.
 */
export function checkHeader(
  file: string,
  header: string[],
  columns: Map<string, Column>,
  separator: Separator,
): Problem[] {
  const problems: Problem[] = [];
  // Excel's line naming the separator, which it writes first when asked to.
  if (/^sep=.?$/i.test(header[0] ?? ""))
    return [
      error(
        { file, line: 1 },
        undefined,
        `starts with Excel's separator line "${excerpt(header.join(separator))}": remove that line, so that the header (contract,number,…) is the first`,
      ),
    ];
  // A spreadsheet's "Text (Tab delimited)" export: "number\tcontract\tname…".
  if (header.length === 1 && header[0]?.includes("\t"))
    return [
      error(
        { file, line: 1 },
        undefined,
        'the columns are separated by tabs: velodata reads CSV separated by "," (or ";", as a spreadsheet in a French or German locale exports it); export it again as CSV',
      ),
    ];
  const seen = new Set<string>();
  // Required columns present in another case: named once, on their own column.
  const renamed = new Set<string>();
  // Columns the header lacks that a cell was said to misspell: not offered for another cell.
  const suggested = new Set<string>();
  const named = namedCount(header);
  // Looked up once per unknown column and per known one: a header of 100,000 names (a broken
  // export, or a hostile file) searched whole at each took minutes.
  const inHeader = new Set(header);
  // Columns of another export (no slip of a known one): said in one error, however many.
  const unknown: string[] = [];
  for (const [index, name] of header.entries()) {
    if (index >= named) break; // the empty columns at its end (see readCsvRecords)
    if (name === "") {
      // Said once, for the first: two separators side by side are one slip.
      if (!seen.has(name)) problems.push(unnamedColumn(file, index, separator, false));
      seen.add(name);
      continue;
    }
    if (seen.has(name)) {
      problems.push(error({ file, line: 1 }, excerpt(name), "column appears twice in the header"));
      continue;
    }
    seen.add(name);
    if (columns.has(name)) continue;
    const [first = "", ...more] = name.split(/\r\n|\r|\n/);
    // A quote opened in the header and closed only in a row below: it holds the rest of the
    // header's line, names and separators, and what the parser read as the header's cells after it
    // are a row's, which saying unknown would be noise. A name on two lines ("capacity⏎(stands,
    // max)") holds no separator before its line break.
    if (more.length > 0 && first.includes(separator))
      return [error({ file, line: 1 }, `column ${index + 1}`, RUNAWAY_QUOTE)];
    // "over⏎flow⏎Capacity": a name broken within itself (a narrow column's wrap typed in) is the
    // column it joins into, before the one its first line names ("overflow"); "capacity⏎(stands)":
    // a spreadsheet's header cell written on two lines (Alt+Enter in Excel). Said once.
    if (more.length > 0) {
      const joined = columnNamed([first, ...more].join("").trim(), columns);
      const known = joined ?? columnNamed(first.trim(), columns);
      const broken = `column ${index + 1}'s name holds a line break`;
      let fix = ": a column's name is one line";
      if (known !== undefined && inHeader.has(known))
        fix = `, and the header has "${known}" already, in column ${header.indexOf(known) + 1}: leave this one out of the export`;
      else if (known !== undefined) {
        renamed.add(known);
        fix += `, write "${known}"${joined === undefined ? " alone" : ""}`;
      }
      problems.push(error({ file, line: 1 }, excerpt(name), `${broken}${fix}`));
      continue;
    }
    // "Contract", "Latitude": a spreadsheet's capitalised header; said once, as the column it is.
    const meant = columnNamed(name, columns);
    // "capactiy": a slip of a column the header lacks; "Numéro", "Capacité": a header written in
    // French, whose accents would otherwise put it past a slip of "number" and "capacity".
    const plain = withoutAccents(name);
    const misspelt = [...columns.keys()].find(
      (known) => !inHeader.has(known) && typosApart(known, plain) <= 2,
    );
    // "Capacity" beside "capacity": a second copy of a column, not a slip of it.
    if (meant !== undefined && inHeader.has(meant)) {
      problems.push(
        error(
          { file, line: 1 },
          excerpt(name),
          `unknown column: the header has "${meant}" already, in column ${header.indexOf(meant) + 1}; leave this one out of the export`,
        ),
      );
      continue;
    }
    if (meant === undefined && misspelt === undefined) {
      unknown.push(name);
      continue;
    }
    problems.push(
      error(
        { file, line: 1 },
        excerpt(name),
        meant !== undefined
          ? `unknown column: column names are read with their case; write "${meant}"`
          : `unknown column: "${misspelt}" misspelt?`,
      ),
    );
    if (meant !== undefined) renamed.add(meant);
    else if (misspelt !== undefined) suggested.add(misspelt);
  }
  const missing = [...columns]
    .filter(([name, column]) => column.required && !inHeader.has(name) && !renamed.has(name))
    .map(([name]) => name);
  // What an unknown cell may hold under another name, when the header lacks a required column.
  const unclaimed =
    missing.length === 0
      ? []
      : [...columns.keys()].filter(
          (name) => !inHeader.has(name) && !renamed.has(name) && !suggested.has(name),
        );
  if (unknown.length > 0)
    problems.push(unknownColumns(file, unknown, [...columns.keys()], unclaimed));
  for (const name of missing)
    problems.push(error({ file, line: 1 }, name, "required column is missing from the header"));
  return problems;
}

/** The column `name` names, in its own case or another ("Latitude"). */
function columnNamed(name: string, columns: Map<string, Column>): string | undefined {
  if (columns.has(name)) return name;
  const lower = name.toLowerCase();
  return [...columns.keys()].find((known) => known.toLowerCase() === lower);
}

const RUNAWAY_QUOTE =
  'opens a quote (") that closes only in a row below, and holds the rest of the header: close it on the header\'s line, or double a quote inside a cell ("")';

const withoutAccents = (name: string): string =>
  name.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

// Unknown columns named at most in their error; the others counted.
const UNKNOWN_NAMED = 5;

/**
 * The columns of another export, in one error: a header with hundreds of them (a spreadsheet's
 * other sheet, a broken export) would otherwise say the same thing hundreds of times.
 */
function unknownColumns(
  file: string,
  names: readonly string[],
  known: readonly string[],
  unclaimed: readonly string[],
): Problem {
  const only = `this file has only the columns ${known.join(", ")}`;
  // A header in the city's own words ("Terminal CB"): those columns are the data, under other
  // names; "leave them out" alone would have them deleted and the required ones still missing.
  const lacked = (each: string) =>
    unclaimed.length > 0
      ? `, or name ${each} as the column it holds (the header lacks ${unclaimed.join(", ")})`
      : "";
  if (names.length === 1)
    return error(
      { file, line: 1 },
      excerpt(names[0] as string),
      `unknown column: ${only}; leave it out of the export${lacked("it")}`,
    );
  const named = names.slice(0, UNKNOWN_NAMED).map((name) => `"${excerpt(name)}"`);
  const more = names.length - named.length;
  return error(
    { file, line: 1 },
    undefined,
    `${names.length} unknown columns, ${named.join(", ")}${more > 0 ? ` and ${more} more` : ""}: ${only}; leave them out of the export${lacked("each")}`,
  );
}
