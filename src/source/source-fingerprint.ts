// A fingerprint of the static source files and of the code that renders them: equal fingerprints
// mean the static answers are the same.
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { folderWhereFileExpected, UserError } from "../errors.js";
import { RACY_MS } from "../racily-clean.js";
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
 * The static files as `stat` saw them (device, inode, size, times to the nanosecond) and the code,
 * hashed, and when: what lets the next run know them unchanged without reading them.
 */
export interface SourceSeen {
  signature: string;
  /** When the files were seen (ms since the epoch). */
  at: number;
  /** When they were last read for the fingerprint (absent: an older velodata's, read again). */
  readAt?: number;
}

/**
 * Where `stat` may not follow writes (a network file system's cached attributes, a FUSE mount of
 * object storage with fixed times), a change of the same size could keep its signature: the files
 * are read again at least this often all the same.
 */
const READ_AGAIN_MS = 3600_000;

/**
 * Content hash of each file, and its modification second (GBFS static feeds are dated by it); and
 * which velodata reads them (codeFingerprint). `before`: what the last run saw and the fingerprint
 * it took then; when the files are as it saw them, that fingerprint, without reading them (~0.1 s
 * of a cron refresh a minute at 100,000 stations: its 24 MB of stations).
 */
export function staticSourceFingerprint(
  dir: string,
  before?: { fingerprint: string; seen: SourceSeen } | null,
): { fingerprint: string; seen: SourceSeen } {
  checkSourceFolder(dir); // the first read of it, in build and refresh
  const at = Date.now();
  const files = STATIC_FILES.map((name) => {
    const path = join(dir, name);
    const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
    // Said here, before its read below, whose error names no path.
    if (stats?.isDirectory()) throw new UserError(folderWhereFileExpected(path));
    return { name, path, stats };
  });
  const signed = createHash("sha1").update(`velodata ${codeFingerprint()}\n`);
  let newest = 0;
  for (const { name, stats } of files) {
    signed.update(
      stats
        ? `${name} ${stats.dev} ${stats.ino} ${stats.size} ${stats.mtimeNs} ${stats.ctimeNs}\n`
        : `${name} absent\n`,
    );
    if (stats) newest = Math.max(newest, Number(stats.mtimeMs), Number(stats.ctimeMs));
  }
  const signature = signed.digest("hex");
  const readAt = before?.seen.readAt ?? Number.NEGATIVE_INFINITY;
  if (
    before &&
    before.seen.signature === signature &&
    newest < before.seen.at - RACY_MS &&
    at - readAt < READ_AGAIN_MS
  )
    return { fingerprint: before.fingerprint, seen: { signature, at, readAt } };
  const hash = createHash("sha1").update(`velodata ${codeFingerprint()}\n`);
  for (const { name, path, stats } of files) {
    if (!stats) {
      hash.update(`${name} absent\n`);
      continue;
    }
    hash.update(`${name} ${Math.floor(Number(stats.mtimeMs) / 1000)} `);
    hash.update(readFileSync(path));
    hash.update("\n");
  }
  return { fingerprint: hash.digest("hex"), seen: { signature, at, readAt: at } };
}
