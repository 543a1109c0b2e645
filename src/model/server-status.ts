// The server's own status answer (`/status`), for operators: which release, how old, how refreshing goes.
import { z } from "zod";

export const ServerStatus = z
  .object({
    release: z.string(),
    generatedAt: z.string(),
    dataAgeSeconds: z.number().int(),
    refreshSeconds: z.number().int(),
    nextRefreshAt: z.string().nullable(),
    refreshLateSeconds: z.number().int(),
    lastRefresh: z
      .object({ at: z.string(), ok: z.boolean(), error: z.string().nullable() })
      .nullable(),
    counts: z.object({
      contracts: z.number().int(),
      stations: z.number().int(),
      parkings: z.number().int(),
    }),
  })
  .meta({ id: "ServerStatus" });
export type ServerStatus = z.infer<typeof ServerStatus>;

/** The body of every error answer that has one. */
export const ErrorBody = z.object({ error: z.string() }).meta({ id: "Error" });
