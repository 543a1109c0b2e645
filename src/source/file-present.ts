// Whether a source file is there: a link that leads to no file is a mistake to say, not an absent file.
import { existsSync, lstatSync, readlinkSync, statSync } from "node:fs";
import { UserError } from "../errors.js";

/** True when `path` leads to a file or folder; false when nothing is there; else a UserError. */
export function isPresent(path: string): boolean {
  if (existsSync(path)) return true;
  if (!lstatSync(path, { throwIfNoEntry: false })) return false;
  const target = readlinkSync(path);
  const loops = (() => {
    try {
      statSync(path);
      return false;
    } catch (cause) {
      return (cause as NodeJS.ErrnoException).code === "ELOOP";
    }
  })();
  throw new UserError(
    loops
      ? `${path} is a link to ${target} that leads back to itself: fix the link`
      : `${path} is a link to ${target}, which does not exist: fix the link`,
  );
}
