// serve publishes an edit of its static source (contracts, stations, parkings, portal) at the
// refresh after it, as a cron refresh does, with no restart: a restart serves nothing for as long
// as a start takes (reading, rendering and compressing the network). The edit is read and checked
// as a start checks its source; one in error, or one that no longer lists more of the stations
// than --max-removed allows (a stations file cut short), is refused and said once, the source last
// published served on with the minute's states, until the source changes again.

import { type Output, reportProblems } from "../commands/output.js";
import { toUserError, UserError, withConsequence } from "../errors.js";
import type { Log } from "../log.js";
import { counted } from "../plural.js";
import type { Release } from "../publish/release.js";
import { type Dataset, stationKey } from "../source/dataset.js";
import { tooManyRemoved } from "../source/missing-stations.js";
import type { Problem } from "../source/problems.js";
import { readStatic, type StaticRead } from "../source/read-dataset.js";
import { type SourceSeen, staticSourceFingerprint } from "../source/source-fingerprint.js";
import { type StaticSourceTimes, staticSourceTimes } from "../source/source-time.js";

/** An edit of the static source to publish: read, checked, and dated. */
export interface StaticEdit {
  read: StaticRead;
  times: StaticSourceTimes;
  /** Its warnings, said once it is published (not each time a refresh that fails reads it again). */
  warnings: readonly Problem[];
  fingerprint: { fingerprint: string; seen: SourceSeen };
}

export interface StaticReloads {
  /**
   * The static source read again when it changed since the one published and has no error; null
   * when it did not change, or when its change is refused (said once per edit, and by `refused`).
   * `published`: the stations served now, which a change may not remove too many of.
   */
  edited(published: Dataset["stations"]): Promise<StaticEdit | null>;
  /** The edit is served now: the next ones are told from it. Says its warnings. */
  published(edit: StaticEdit): void;
  /**
   * The edit could not be published (its rendering failed: a worker thread out of memory or
   * killed, a bug): refused as an edit in error is, said once, the source published before served
   * on; the next edit is tried.
   */
  failed(edit: StaticEdit, cause: unknown): void;
  /** Why the static source's last change is not published; null when it is (or none came). */
  refused(): string | null;
}

export const STATIC_EDIT_REFUSED =
  "its change is not published: the states still are, against the static source last published";

/**
 * The edits of the static source in `dir`, told from the one a start is about to read (so an edit
 * made during the start's read is published by the first refresh).
 */
export function staticSourceReloads(dir: string, log: Log, maxRemovedShare: number): StaticReloads {
  let published = staticSourceFingerprint(dir);
  let seen = published;
  let refusedFingerprint: string | null = null;
  let refusal: string | null = null;

  /** Says a refused edit once: its headline and each of its lines, as a build would print them. */
  const refuse = (fingerprint: string, cause: UserError): null => {
    refusedFingerprint = fingerprint;
    refusal = cause.message;
    log(`static source: ${cause.message}`, "error");
    for (const line of cause.details) log(`  ${line}`, "error");
    log(
      `  said once for this edit: one without error is published at the refresh after it (\`velodata validate --source ${dir}\` checks it first)`,
    );
    return null;
  };

  return {
    async edited(stations) {
      try {
        seen = staticSourceFingerprint(dir, seen);
      } catch (cause) {
        // A folder gone or unreadable, a file become a folder: said once per reason.
        const refused = refusedFor(cause);
        return refusal === refused.message ? null : refuse(`unread: ${refused.message}`, refused);
      }
      const { fingerprint } = seen;
      if (fingerprint === published.fingerprint) {
        // Edited back as it was: the refused edit, made again (the same bytes, at the same time,
        // as `rsync -a` or a `mv` back write them), is a new edit, refused and said again.
        refusal = null;
        refusedFingerprint = null;
        return null;
      }
      if (fingerprint === refusedFingerprint) return null;
      let read: StaticRead;
      try {
        read = await readStatic(dir);
        reportProblems(
          read.problems.filter((problem) => problem.severity === "error"),
          silent,
          STATIC_EDIT_REFUSED,
        ); // throws on any error
        refuseTooManyRemoved(dir, stations, read, maxRemovedShare);
      } catch (cause) {
        const refused = refusedFor(cause);
        // The system's error reading it (too many open files, a disk's), not the edit's own: the
        // next refresh reads the same edit again; said once while it lasts.
        if (systemErrorCode(cause) !== undefined)
          return refusal === refused.message ? null : refuse(`unread: ${refused.message}`, refused);
        return refuse(fingerprint, refused);
      }
      return {
        read,
        times: staticSourceTimes(dir),
        warnings: read.problems.filter((problem) => problem.severity === "warning"),
        fingerprint: seen,
      };
    },
    published(edit) {
      published = edit.fingerprint;
      refusedFingerprint = null;
      refusal = null;
      reportProblems(edit.warnings, logged(log), null);
    },
    failed(edit, cause) {
      const why = cause instanceof Error ? cause.message : String(cause);
      refusedFingerprint = edit.fingerprint.fingerprint;
      refusal = `its publish failed (${why}); ${STATIC_EDIT_REFUSED}`;
      log(`static source: ${refusal}`, "error");
      log(
        "  said once for this edit: the next edit is tried again, and a restart publishes the source whole",
      );
    },
    refused: () => refusal,
  };
}

/** The errno code of a system's error, given as it is or as a UserError's cause. */
function systemErrorCode(cause: unknown): string | undefined {
  const error = cause instanceof UserError ? cause.cause : cause;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}

/** A user's or the system's error (a file unreadable) as the refusal of the edit; else thrown. */
function refusedFor(cause: unknown): UserError {
  const said = toUserError(cause);
  if (!(said instanceof UserError)) throw cause;
  return said.message.includes(STATIC_EDIT_REFUSED)
    ? said
    : withConsequence(said, STATIC_EDIT_REFUSED);
}

/** Throws when the edit no longer lists more of the `published` stations than allowed. */
function refuseTooManyRemoved(
  dir: string,
  published: Dataset["stations"],
  read: StaticRead,
  maxRemovedShare: number,
): void {
  const edited = read.source.stations.map(({ value }) => value);
  const removed = removedStations(published, edited).length;
  const refused = tooManyRemoved(dir, removed, published.length, maxRemovedShare);
  if (!refused) return;
  throw new UserError(`${refused}; ${STATIC_EDIT_REFUSED}`, [
    "a file cut short or replaced by another network's? If the stations really left, restart the server (a start publishes the source whole) or start it with a higher --max-removed",
  ]);
}

const silent: Output = { info: () => {}, warn: () => {}, progress: () => {} };

/** An Output whose lines go to the server's log, warnings as warnings. */
const logged = (log: Log): Output => ({
  info: (line) => log(line),
  warn: (line) => log(line, "warning"),
  progress: () => {},
});

/** The stations of `before` that `after` no longer lists, in `before`'s order. */
export function removedStations(
  before: Dataset["stations"],
  after: readonly { contract: string; number: number }[],
): Dataset["stations"] {
  const listed = new Set(after.map(({ contract, number }) => stationKey(contract, number)));
  return before.filter(({ contract, number }) => !listed.has(stationKey(contract, number)));
}

/** What an edit changed, in counts: "3 contracts, 415 stations (was 413), 12 parkings". */
export function editPublished(before: Release, after: Release): string {
  const count = (what: "contracts" | "stations" | "parkings", one: string) => {
    const was = before.counts[what];
    const now = after.counts[what];
    return `${counted(now, one)}${now === was ? "" : ` (was ${was})`}`;
  };
  return `${count("contracts", "contract")}, ${count("stations", "station")}, ${count("parkings", "parking")}`;
}
