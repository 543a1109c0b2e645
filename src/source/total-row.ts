// A spreadsheet's total line under its table ("Total;;;;…;83;6"), which an export keeps: said as
// one line to delete, not as a record whose number, name and position are each missing.

/** A word a total line starts a cell with, in the languages of the exports velodata reads. */
const TOTAL = /^(?:total|totals|totaux|sum|summe|gesamt|somme)\b/iu;

/**
 * The total word of a row without a number (its cell at `number`, the header's "number" column,
 * -1 when it has none), or undefined: a station named "Total" has one.
 */
export function totalWord(record: readonly string[], number: number): string | undefined {
  if (number < 0 || record[number] !== "") return undefined;
  return record.find((cell) => TOTAL.test(cell));
}
