// The --source folder: said plainly when it is missing or a file, before anything is read from it.
import { existsSync, statSync } from "node:fs";
import { UserError } from "../errors.js";

export function checkSourceFolder(dir: string): void {
  if (!existsSync(dir)) throw new UserError(`source folder not found: ${dir}`);
  if (!statSync(dir).isDirectory())
    throw new UserError(
      `${dir} is a file: --source takes the folder holding contracts.json and stations.csv (or .json)`,
    );
}
