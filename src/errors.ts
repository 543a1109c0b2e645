// The two kinds of failure the CLI knows: a user's mistake (printed plainly, exit 1) and our bug.

/** A problem the user can fix: bad input, a missing file, a wrong option. Printed without a stack. */
export class UserError extends Error {
  override name = "UserError";
  constructor(
    message: string,
    /** Extra lines printed under the message (one per problem found). */
    readonly details: readonly string[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
