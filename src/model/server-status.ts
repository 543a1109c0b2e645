// The server's own status answer (`/status`), for operators: which release, how old, how refreshing goes.
import { z } from "zod";

const count = z.number().int().min(0);
// int64: a heap passes 2^31 bytes (a generated client's int, in Java, Kotlin, C# or Go, would not hold it).
const bytes = (what: string) => count.meta({ format: "int64" }).describe(`${what}, in bytes.`);

/**
 * Said of each part only the server's operators see: paths, errors naming files, the keys and
 * the memory are left out for any other client (see status-details.ts).
 */
export const DETAILS_ONLY =
  "Shown only to clients `--status-details-from` allows (by default, on the server's machine, directly or through its nginx).";

/**
 * When `ok` is false (and `/status` answers 503), as statusOf decides it: one wording for the
 * field and the 503 alike, so that a monitoring check's alert is explained by the document.
 */
export const NOT_OK_WHEN =
  "the last refresh failed, a refresh is a whole period late, the feed is stale, the keys file cannot be read, no key is accepted (no keys file, or every key revoked), or a front server answers from a tree this server does not keep";

export const ServerStatus = z
  .object({
    ok: z.boolean().describe(`false when ${NOT_OK_WHEN} (then 503).`),
    release: z
      .string()
      .describe("Id of the release served: a digest of its answers, changed when any answer is."),
    generatedAt: z.iso.datetime().describe("When the release served was made: ISO 8601 in UTC."),
    dataAgeSeconds: count.describe("Seconds since `generatedAt`: the age of the release."),
    refreshSeconds: count.describe("Seconds between two refreshes of the station states."),
    nextRefreshAt: z.iso
      .datetime()
      .nullable()
      .describe(
        "When the next refresh is due: ISO 8601 in UTC; null until the server schedules one.",
      ),
    refreshLateSeconds: count.describe("Seconds the refresh due has run past its time; 0 on time."),
    lastRefresh: z
      .object({
        at: z.iso.datetime().describe("When it started: ISO 8601 in UTC."),
        ok: z.boolean().describe("false when it failed: the release before it is still served."),
        error: z
          .string()
          .nullable()
          .optional()
          .describe(`Why it failed; null when it did not. ${DETAILS_ONLY}`),
      })
      .nullable()
      .describe("The last refresh since the server started; null until the first."),
    counts: z
      .object({
        contracts: count.describe("Contracts in the release."),
        stations: count.describe("Stations in the release."),
        parkings: count.describe("Parkings in the release."),
      })
      .describe("The records the release publishes."),
    staticSource: z
      .object({
        path: z.string().describe("The static source's folder (`--source`)."),
        updatedAt: z.iso
          .datetime()
          .describe(
            "When the data of the static source published last changed (the bundle's `created`): ISO 8601 in UTC.",
          ),
        error: z
          .string()
          .nullable()
          .describe(
            "Why its latest edit is not published (an error in it, too many stations gone): the source published before is served on; null when the latest is published.",
          ),
      })
      .nullable()
      .optional()
      .describe(
        `The static source (contracts, stations, parkings, portal): an edit of it is published at the refresh after it, once it has no error. ${DETAILS_ONLY}`,
      ),
    tree: z
      .object({
        path: z.string().describe("The tree's folder (`--out`)."),
        release: z
          .string()
          .nullable()
          .describe("The release the tree holds whole; null while mixed."),
        error: z
          .string()
          .nullable()
          .describe("Why the tree does not hold the latest release; null when it does."),
      })
      .nullable()
      .optional()
      .describe(`With \`serve --out\`: the tree on disk; null without it. ${DETAILS_ONLY}`),
    front: z
      .object({
        tree: z
          .string()
          .describe("The folder the front server answers from (`velodata nginx --tree`)."),
        kept: z
          .boolean()
          .describe(
            "Whether it is the tree this server keeps (`--out`): when false, the front serves the station answers as that tree last had them, and ok is false.",
          ),
      })
      .nullable()
      .optional()
      .describe(
        `The front server (nginx, as \`velodata nginx\` configures it) that hands requests on to this server, as it last said; null until one has. ${DETAILS_ONLY}`,
      ),
    feed: z
      .object({
        ok: z.boolean().describe("false when `staleShare` is above `maxStaleShare`."),
        newestLastUpdate: z.iso
          .datetime()
          .nullable()
          .describe("The newest `lastUpdate` of any station: ISO 8601 in UTC; null when none."),
        newestAgeSeconds: count
          .nullable()
          .describe("Seconds since `newestLastUpdate`: a stalled feed shows here; null when none."),
        missingStations: count.describe(
          "Stations without a state in the last states read (left out of it, or their state in error): each published at its last state, disconnected, or `CLOSED` if it never reported.",
        ),
        staleMinutes: z
          .number()
          .describe("Minutes without a report after which a station is stale (`--stale-minutes`)."),
        staleStations: count.describe(
          "Stations not reported for `staleMinutes` or more, or without a state in the last read: `missingStations` are counted here too, whatever their last report (the log's and `refresh`'s warnings say the two apart).",
        ),
        staleShare: z
          .number()
          .min(0)
          .max(1)
          .describe("`staleStations` as a share of all stations, 0 to 1."),
        maxStaleShare: z
          .number()
          .min(0)
          .max(1)
          .describe("The share of stale stations above which `ok` is false (`--max-stale`)."),
      })
      .nullable()
      .describe("How fresh the station states are, as opposed to the release."),
    keys: z
      .object({
        ok: z
          .boolean()
          .describe("false when the keys file cannot be read, or when no key is accepted."),
        failingSince: z.iso
          .datetime()
          .nullable()
          .optional()
          .describe(
            `Since when the keys file is unreadable, invalid or gone (ISO 8601 in UTC): the last good set of keys stays in force, so keys added or revoked since do not take effect (the server's log says why). ${DETAILS_ONLY}`,
          ),
        activeKeys: count
          .optional()
          .describe(
            `The keys accepted now (revoked ones left out, the demo key counted): with none, every keyed request is refused, and ok is false. ${DETAILS_ONLY}`,
          ),
      })
      .describe("The keys file the server reads again at each change."),
    memory: z
      .object({
        rssBytes: bytes("Resident memory of the whole process"),
        heapUsedBytes: bytes("Heap in use by the serving thread"),
        heapLimitBytes: bytes(
          "The serving thread's heap limit: near it, collections run at every turn and refreshes slow down",
        ),
      })
      .optional()
      .describe(`Memory of the server's process and of its serving thread. ${DETAILS_ONLY}`),
  })
  .meta({ id: "ServerStatus" });
export type ServerStatus = z.infer<typeof ServerStatus>;

/**
 * The body of every error answer that has one. Named `ErrorBody` in the OpenAPI document, not
 * `Error`: generated clients make a type of each schema, and one named `Error` hides JavaScript's.
 */
export const ErrorBody = z
  .object({
    error: z
      .string()
      .describe(
        "What went wrong, in the original service's words where it has them (`Unauthorized`, `Specified contract does not exist`, `Resource Not Found`).",
      ),
  })
  .meta({ id: "ErrorBody" });
