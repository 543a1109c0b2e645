// A fingerprint of the static source files and of the code that renders them: equal fingerprints
// mean the static answers are the same.
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { codeFingerprint } from "./code-fingerprint.js";
import { checkSourceFolder } from "./source-folder.js";

// Every file the static answers are made from. A new static input must be added here, or a cron
// refresh would keep answers made from its old content.
const STATIC_FILES = [
  "contracts.json",
  "stations.json",
  "stations.csv",
  "parkings.json",
  "parkings.csv",
  "portal.json",
];

/**
 * Content hash of each file, and its modification second (GBFS static feeds are dated by it); and
 * which velodata reads them (codeFingerprint).
 */
export function staticSourceFingerprint(dir: string): string {
  checkSourceFolder(dir); // the first read of it, in build and refresh
  const hash = createHash("sha1").update(`velodata ${codeFingerprint()}\n`);
  for (const name of STATIC_FILES) {
    const path = join(dir, name);
    const stats = statSync(path, { throwIfNoEntry: false });
    if (!stats) {
      hash.update(`${name} absent\n`);
      continue;
    }
    hash.update(`${name} ${Math.floor(stats.mtimeMs / 1000)} `);
    hash.update(readFileSync(path));
    hash.update("\n");
  }
  return hash.digest("hex");
}
