// What a cron refresh says of the tree when an error stops it before any change: left as it was.
import { toUserError, UserError, withConsequence } from "../errors.js";

/** What a refresh stopped by an error says of the tree (nothing of it was touched). */
export const TREE_LEFT = "the tree is left as it was";

/**
 * Throws a user's error met reading the inputs (a states file or source file missing, a folder,
 * too big) saying the tree is left as it was, as the source's errors do: cron mails the line alone.
 */
export function saidTreeLeft(cause: unknown): never {
  const said = toUserError(cause);
  if (!(said instanceof UserError) || said.message.includes(TREE_LEFT)) throw cause;
  throw withConsequence(said, TREE_LEFT);
}
