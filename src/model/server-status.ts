// The server's own status answer (`/status`), for operators: which release, how old, how refreshing goes.
import { z } from "zod";

const count = z.number().int().min(0);

export const ServerStatus = z
  .object({
    ok: z
      .boolean()
      .describe(
        "false when the last refresh failed, a refresh is a whole period late, the feed is stale or the keys file cannot be read (then 503)",
      ),
    release: z.string(),
    generatedAt: z.string(),
    dataAgeSeconds: count,
    refreshSeconds: count,
    nextRefreshAt: z.string().nullable(),
    refreshLateSeconds: count.describe("how long the refresh due has run past its time"),
    lastRefresh: z
      .object({ at: z.string(), ok: z.boolean(), error: z.string().nullable() })
      .nullable(),
    counts: z.object({ contracts: count, stations: count, parkings: count }),
    tree: z
      .object({
        path: z.string(),
        release: z
          .string()
          .nullable()
          .describe("the release the tree holds whole; null while mixed"),
        error: z.string().nullable(),
      })
      .nullable()
      .describe("with serve --out: the tree on disk"),
    feed: z
      .object({
        ok: z.boolean(),
        newestLastUpdate: z.string().nullable(),
        newestAgeSeconds: count.nullable(),
        missingStations: count,
        staleMinutes: z.number(),
        staleStations: count,
        staleShare: z.number().min(0).max(1),
        maxStaleShare: z.number().min(0).max(1),
      })
      .nullable()
      .describe("how fresh the station states are, as opposed to the release"),
    keys: z
      .object({
        ok: z.boolean(),
        failingSince: z
          .string()
          .nullable()
          .describe(
            "since when the keys file is unreadable, invalid or gone: the last good set of keys stays in force, so keys added or revoked since do not take effect (the server's log says why)",
          ),
        activeKeys: count
          .optional()
          .describe(
            "the keys accepted now (revoked ones left out, the demo key counted): with none, every keyed request is refused, and ok is false",
          ),
      })
      .describe("the keys file the server reads again at each change"),
    memory: z.object({ rssBytes: count, heapUsedBytes: count, heapLimitBytes: count }),
  })
  .meta({ id: "ServerStatus" });
export type ServerStatus = z.infer<typeof ServerStatus>;

/** The body of every error answer that has one. */
export const ErrorBody = z.object({ error: z.string() }).meta({ id: "Error" });
