// Whether another user (nginx's workers, www-data) can reach a tree's files: a folder on the way
// closed to it makes nginx hand every request to velodata serve, public files too.
import { statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileOf, ROUTES } from "../routes/routes.js";

/**
 * The first folder on the way to `tree` (its real path) that other users cannot enter, or the
 * tree's OpenAPI document when they cannot read it, with its mode; null when all is open to them.
 * Only the bits for others are read: nginx's user seldom owns the tree or shares its group.
 */
export function closedToOthers(tree: string): { path: string; mode: string } | null {
  const folders: string[] = [];
  for (let folder = tree; ; folder = dirname(folder)) {
    folders.unshift(folder);
    if (dirname(folder) === folder) break;
  }
  const checks = [
    ...folders.map((path) => ({ path, needed: 0o001 })),
    { path: join(tree, fileOf(ROUTES.openapi.path)), needed: 0o004 },
  ];
  for (const { path, needed } of checks) {
    const mode = statSync(path, { throwIfNoEntry: false })?.mode;
    if (mode !== undefined && (mode & needed) === 0)
      return { path, mode: (mode & 0o777).toString(8).padStart(3, "0") };
  }
  return null;
}
