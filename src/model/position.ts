// WGS84 coordinates as the source gives them (flat, so the same record reads from JSON and CSV).
import { z } from "zod";
import { POSITION } from "./field-meanings.js";

// Ranges are checked by the rule `coordinatesInRange`, which reports the record, not just the value.
export const latitude = z.number().describe(POSITION.latitude);
export const longitude = z.number().describe(POSITION.longitude);

/** The published position object, in the order the real service emits it. */
export const Position = z.object({ latitude, longitude });
export type Position = z.infer<typeof Position>;
