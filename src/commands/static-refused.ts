// A cron refresh whose static source was changed with an error in it (or refused whole, a file
// cut short: StaticSourceRefused): the change is refused, as a build refuses it, but the states of
// the minute are still published, against the static source last published (the tree's), as one
// bad state record does not stop a network's other states. Otherwise one typo in stations.csv
// would freeze every station's bikes until someone fixed it.
import { UserError, withConsequence } from "../errors.js";
import { readStatic } from "../source/read-dataset.js";
import { memoryOutput, reportProblems } from "./output.js";

export const STATIC_CHANGE_REFUSED =
  "its change is not published: this minute's states were, against the static source last published";

/**
 * What a build would say of the static source in `source`, its change refused: a UserError to
 * throw once the states are published (the run ends in error, cron mails it, every minute until
 * the source is fixed), or null when the source has no error.
 */
export async function staticRefusal(source: string): Promise<UserError | null> {
  try {
    const { problems } = await readStatic(source);
    // Its warnings are not said: what they describe is not published.
    const errors = problems.filter((problem) => problem.severity === "error");
    reportProblems(errors, memoryOutput(), STATIC_CHANGE_REFUSED); // throws on any error
    return null;
  } catch (cause) {
    if (!(cause instanceof UserError)) throw cause;
    // A file missing or unreadable is refused as an error in it is.
    return cause.message.includes(STATIC_CHANGE_REFUSED)
      ? cause
      : withConsequence(cause, STATIC_CHANGE_REFUSED);
  }
}
