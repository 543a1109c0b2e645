// What the GBFS answers look like, for the OpenAPI document: each feed's header and its main lists,
// open to the fields the official schemas define (those schemas, not these, are what tests hold them to).
import { z } from "zod";

const header = (version: "2.3" | "3.0") => ({
  last_updated: version === "2.3" ? z.number().int() : z.string(),
  ttl: z.number().int().min(0),
  version: z.literal(version),
});

const FeedLinks = z.object({ feeds: z.array(z.object({ name: z.string(), url: z.string() })) });
const StationEntries = z.looseObject({
  stations: z.array(z.looseObject({ station_id: z.string() })),
});

export const GbfsDiscoveryV2 = z
  .looseObject({ ...header("2.3"), data: z.record(z.string(), FeedLinks) })
  .meta({ id: "GbfsDiscoveryV2" });
export const GbfsDiscoveryV3 = z
  .looseObject({ ...header("3.0"), data: FeedLinks })
  .meta({ id: "GbfsDiscoveryV3" });

export const GbfsFeedV2 = z
  .looseObject({ ...header("2.3"), data: z.looseObject({}) })
  .meta({ id: "GbfsFeedV2" });
export const GbfsFeedV3 = z
  .looseObject({ ...header("3.0"), data: z.looseObject({}) })
  .meta({ id: "GbfsFeedV3" });

export const GbfsStationStatusV2 = z
  .looseObject({ ...header("2.3"), data: StationEntries })
  .meta({ id: "GbfsStationStatusV2" });
export const GbfsStationStatusV3 = z
  .looseObject({ ...header("3.0"), data: StationEntries })
  .meta({ id: "GbfsStationStatusV3" });

export const GbfsManifest = z
  .looseObject({
    ...header("3.0"),
    data: z.object({
      datasets: z.array(
        z.object({
          system_id: z.string(),
          versions: z.array(z.object({ version: z.string(), url: z.string() })),
        }),
      ),
    }),
  })
  .meta({ id: "GbfsManifest" });
