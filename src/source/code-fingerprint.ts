// Which velodata made a tree's static answers. A cron refresh keeps them as they are while the
// static source is unchanged; after an upgrade (new code, new dependencies) they must be rendered
// again once, or a tree would go on serving the old version's OpenAPI document, portal or GBFS
// files, or lack a new route's answers.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { GBFS_SCHEMA_FOLDERS } from "../model/gbfs-official.js";
import { PAGE } from "../publish/render/portal/portal-assets.js";

// The compiled modules' folder (dist/; the sources' when run from them, in tests): `tsc` writes
// every file of it at each build, so its top-level files' times change with any new build. The
// portal's page files and the GBFS schemas are read from the sources at run time; the pins name
// the dependencies.
const CODE = fileURLToPath(new URL("..", import.meta.url));
const PACKAGE = fileURLToPath(new URL("../..", import.meta.url));
const PINS = ["package.json", "package-lock.json"].map((name) => join(PACKAGE, name));

let known: string | undefined;

/** The path, size and modification time of those files: read once per process, ~30 stat calls. */
export function codeFingerprint(): string {
  if (known !== undefined) return known;
  const hash = createHash("sha1");
  const inFolder = (folder: string) =>
    readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(folder, entry.name));
  // Missing page or schema files are said by the render that reads them, not here.
  const read = [PAGE, ...GBFS_SCHEMA_FOLDERS].flatMap((folder) =>
    existsSync(folder) ? inFolder(folder) : [],
  );
  for (const file of [...inFolder(CODE), ...read, ...PINS].sort()) {
    const stats = statSync(file, { throwIfNoEntry: false });
    if (stats) hash.update(`${file} ${stats.size} ${stats.mtimeMs}\n`);
  }
  known = hash.digest("hex");
  return known;
}
