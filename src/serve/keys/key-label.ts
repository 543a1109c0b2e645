// A key's label: a name for people, printed in `keys list`'s tab-separated rows and in messages.
import { escapeControls, excerpt, UserError } from "../../errors.js";

/** Room for "city app (Lyon), contact ops@example.org", not for a pasted document. */
export const LABEL_MAX = 200;

// A tab or a newline breaks the rows; an escape sequence would drive the terminal that lists them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Throws a one-line UserError quoting at most a short, escaped excerpt of a bad label. */
export function checkLabel(label: string): void {
  const quoted = `"${escapeControls(excerpt(label, 40))}"`;
  if (label.length > LABEL_MAX)
    throw new UserError(
      `a key's label must have at most ${LABEL_MAX} characters, got ${quoted}: give a shorter one`,
    );
  if (CONTROL.test(label))
    throw new UserError(
      `a key's label must not hold control characters (tab, newline, escape…), got ${quoted}: give plain text`,
    );
}
