// A number with a space inside it, as a spreadsheet shows one to people: "1 234", its thousands
// parted by a space, or in a French locale by a no-break one (U+00A0, or U+202F), which looks the
// same and which no search for a space finds. Such a cell stays text, never read as the number
// it may stand for: "4 5.1" is as likely a slip.

const SPACE = /[ \u00a0\u2009\u202f]/g;
const NO_BREAK = /[\u00a0\u202f]/;
// Groups of three digits, each after the same space: a thousands separator, not a slip.
const THOUSANDS = /^[-+]?\d{1,3}([ \u00a0\u2009\u202f])\d{3}(?:\1\d{3})*(?:\.\d+)?$/;
const WHOLE = /^[-+]?\d+$/;
const FRACTIONAL = /^[-+]?(?:\d+\.?\d*|\.\d+)$/;

/**
 * What is wrong with `text`, a number but for the spaces inside it, and how to write it (`whole`:
 * the field takes a whole number); undefined when it is no such number.
 */
export function spacedNumber(text: string, whole: boolean): string | undefined {
  const number = text.trim();
  const without = number.replace(SPACE, "");
  if (without === number || !(whole ? WHOLE : FRACTIONAL).test(without)) return undefined;
  const noBreak = NO_BREAK.test(number);
  const space = `a ${noBreak ? "no-break " : ""}space inside the number`;
  return THOUSANDS.test(number)
    ? `${space}, as a thousands separator${noBreak ? " (a French spreadsheet's)" : ""}; write ${without}`
    : `${space}; write it without: ${without}, if that is the number meant`;
}
