// A station's or a parking's number as its CSV cell writes it and as it is published: a cell is
// text, "032" in the operator's system, while the API's numbers are integers, 32 to its clients.
import { excerpt } from "../../errors.js";
import { type Problem, type Sourced, warning } from "../problems.js";

type Numbered = Sourced<{ number: number }>;

/** The record's number as the file writes it. */
export const writtenNumber = ({ value, at }: Numbered): string =>
  at.writtenNumber ?? String(value.number);

/**
 * A number published otherwise than its file writes it (`032` as 32) is said: taken silently, the
 * API would name the station otherwise than the operator's own system does. A warning: the number
 * it reads as is most often the one meant (an export padding its numbers to a width).
 */
export function numbersPublishedAsWritten(kind: string, records: readonly Numbered[]): Problem[] {
  return records
    .filter(({ at }) => at.writtenNumber !== undefined)
    .map((record) => {
      const { number } = record.value;
      const written = writtenNumber(record);
      return warning(
        record.at,
        "number",
        `written "${excerpt(written)}", published as ${number}: numbers are published without ${differences(written)} (clients ask for ${kind} ${number}); write ${number} if that is the ${kind}'s number`,
      );
    });
}

/** What a number's text has that its published form has not: "leading zeros", "a sign"… */
function differences(written: string): string {
  const found: string[] = [];
  if (/^[-+]/.test(written)) found.push("a sign");
  if (/^[-+]?0\d/.test(written)) found.push("leading zeros");
  // A ";" file's decimal comma ("52,0") too: read-csv takes it for a point there.
  if (/[.,]/.test(written)) found.push("decimals");
  return found.length > 1 ? `${found.slice(0, -1).join(", ")} or ${found.at(-1)}` : found.join("");
}
