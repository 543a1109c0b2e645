// csv-parse's errors in a maintainer's words: the line, the column (counted from 1 and named by
// the header), and what is wrong with its quotes. csv-parse's own say "field 2" for the third.
import { excerpt } from "../errors.js";
import { error, type Problem } from "./problems.js";

/** What csv-parse's CsvError carries: `column` is the 0-based count of the row's cells before. */
interface CsvFault {
  code?: unknown;
  lines?: unknown;
  column?: unknown;
}

export const UNCLOSED_QUOTE =
  'has a cell that opens a quote (") and never closes it: close it, or double a quote inside a cell ("")';

const TEXT_AFTER_CLOSING_QUOTE =
  'has text after the quote (") that closes the cell: a quote inside a quoted cell is written twice ("")';

// Only what a file can cause: the others (options, column definitions) are velodata's bugs.
const WORDS: Record<string, string> = {
  INVALID_OPENING_QUOTE:
    'has a quote (") inside a cell that does not start with one: remove it, or put the whole cell in quotes and double each quote inside ("a ""b"" c")',
  // Two codes for one fault: csv-parse tells them apart by whether it trims spaces.
  CSV_INVALID_CLOSING_QUOTE: TEXT_AFTER_CLOSING_QUOTE,
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: TEXT_AFTER_CLOSING_QUOTE,
  CSV_QUOTE_NOT_CLOSED: UNCLOSED_QUOTE,
  CSV_RECORD_INCONSISTENT_FIELDS_LENGTH:
    "has a different number of cells from the header: every row needs a cell for each column",
  CSV_MAX_RECORD_SIZE: 'has a row too long to read: a quote (") left open above it?',
};

/** The problem for csv-parse's error `cause` in `file`, whose header row is `header` when read. */
export function csvSyntaxProblem(
  file: string,
  cause: unknown,
  header: readonly string[] | null,
): Problem {
  const fault = (typeof cause === "object" && cause !== null ? cause : {}) as CsvFault;
  const line = typeof fault.lines === "number" && fault.lines > 0 ? fault.lines : undefined;
  const words = typeof fault.code === "string" ? WORDS[fault.code] : undefined;
  const at = { file, ...(line === undefined ? {} : { line }) };
  if (words === undefined)
    return error(
      at,
      undefined,
      'is not valid CSV here: check the quotes (") and commas of this line',
    );
  return error(at, columnOf(fault, line, header), words);
}

/** "column 3 (name)": counted from 1, named by the header on the rows below it. */
function columnOf(
  fault: CsvFault,
  line: number | undefined,
  header: readonly string[] | null,
): string | undefined {
  if (typeof fault.column !== "number" || fault.code === "CSV_QUOTE_NOT_CLOSED") return undefined;
  const name = line !== undefined && line > 1 ? header?.[fault.column] : undefined;
  return `column ${fault.column + 1}${name ? ` (${excerpt(name)})` : ""}`;
}
