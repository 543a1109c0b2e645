// When the static source last changed: the time GBFS gives its static feeds.
import { stat } from "node:fs/promises";
import { join } from "node:path";

// Parkings are not in the GBFS feeds: editing them must not move their time.
const FILES = ["contracts.json", "stations.json", "stations.csv"];

/**
 * The latest modification time of the files the static GBFS feeds come from, to the second, so
 * that their `last_updated` (and their bytes) move only when the source does, not at each build.
 */
export async function staticSourceUpdatedAt(dir: string): Promise<Date> {
  let latest = 0;
  for (const file of FILES) {
    try {
      latest = Math.max(latest, (await stat(join(dir, file))).mtimeMs);
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code !== "ENOENT") throw cause;
    }
  }
  return new Date(Math.floor(latest / 1000) * 1000);
}
