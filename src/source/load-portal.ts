// Reads the optional `portal.json` of a source folder: the operator's words on the portal page.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { DEFAULT_PORTAL, PortalSettings } from "../model/portal.js";
import type { Loaded } from "./load-source.js";
import { parseRecords } from "./parse-records.js";
import { error } from "./problems.js";

export const PORTAL_FILE = "portal.json";

export async function loadPortalSettings(dir: string): Promise<Loaded<PortalSettings>> {
  const file = join(dir, PORTAL_FILE);
  if (!existsSync(file)) return { value: DEFAULT_PORTAL, problems: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, "utf8"));
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    return {
      value: DEFAULT_PORTAL,
      problems: [error({ file }, undefined, `is not valid JSON: ${reason}`)],
    };
  }
  const parsed = parseRecords(PortalSettings, [{ raw, at: { file } }]);
  return { value: parsed.records[0]?.value ?? DEFAULT_PORTAL, problems: parsed.problems };
}
