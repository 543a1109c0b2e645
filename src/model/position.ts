// WGS84 coordinates as the source gives them (flat, so the same record reads from JSON and CSV).
import { z } from "zod";

// Ranges are checked by the rule `coordinatesInRange`, which reports the record, not just the value.
export const latitude = z.number().describe("WGS84 latitude in degrees");
export const longitude = z.number().describe("WGS84 longitude in degrees");

/** The published position object, in the order the real service emits it. */
export const Position = z.object({ latitude, longitude });
export type Position = z.infer<typeof Position>;
