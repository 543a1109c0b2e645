// A write refused for want of space just after a stopped build's release folders were handed to a
// remover: a killed build's half tree is often what filled the disk, and its space comes back by
// itself, which "free some space" alone would not tell the operator.
import { UserError } from "../errors.js";
import { counted } from "../plural.js";

const OUT_OF_SPACE = new Set(["ENOSPC", "EDQUOT"]);

/** `thrown`, saying that the `leftovers` being removed beside the run may hold the space it lacked. */
export function withLeftoversBeingRemoved(thrown: unknown, leftovers: number): unknown {
  if (leftovers === 0 || !(thrown instanceof UserError)) return thrown;
  const code = (thrown.cause as NodeJS.ErrnoException | undefined)?.code;
  if (code === undefined || !OUT_OF_SPACE.has(code)) return thrown;
  const were = leftovers === 1 ? "was" : "were";
  return new UserError(
    thrown.message,
    [
      `${counted(leftovers, "release folder")} a stopped build left ${were} handed to a remover as this run began: if ${leftovers === 1 ? "it" : "they"} held that space, the next run finds it free`,
      ...thrown.details,
    ],
    { cause: thrown.cause },
  );
}
