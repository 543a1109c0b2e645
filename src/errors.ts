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

/** Wraps a lower error with what we were doing when it happened (file, step), keeping `cause`. */
export function withContext(context: string, error: unknown): Error {
  if (error instanceof UserError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new Error(`${context}: ${reason}`, { cause: error });
}
