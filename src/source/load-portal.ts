// Reads the optional `portal.json` of a source folder: the operator's words on the portal page.
import { join } from "node:path";
import { excerpt } from "../errors.js";
import { DEFAULT_PORTAL, PortalSettings } from "../model/portal.js";
import { duplicateKeys, givesKeyTwice } from "./duplicate-keys.js";
import { isPresent } from "./file-present.js";
import type { Loaded } from "./load-source.js";
import { parseRecords } from "./parse-records.js";
import { error, type Problem } from "./problems.js";
import { readSourceText } from "./read-text.js";

export const PORTAL_FILE = "portal.json";

/**
 * What a source folder without portal.json publishes, said once by each command that reads it: no
 * fault (a trial needs none), but a public page whose readers cannot reach whoever runs it.
 */
export const noPortalNote = (file: string): string =>
  `portal: no ${file}: the portal page is titled "velodata" and tells readers to ask "the operator of this deployment" for a key, with no way to reach them; ` +
  `write it with the service's name and where to ask for a key, {"serviceName": "…", "keys": {"url": "https://…"}} (see the README's Portal section)`;

/** The portal's settings, and without the file, the note that says so (noPortalNote). */
export async function loadPortalSettings(
  dir: string,
): Promise<Loaded<PortalSettings> & { note?: string }> {
  const file = join(dir, PORTAL_FILE);
  const unread = (problem: Problem) => ({ value: DEFAULT_PORTAL, problems: [problem] });
  if (!isPresent(file)) return { value: DEFAULT_PORTAL, problems: [], note: noPortalNote(file) };
  const read = await readSourceText(file, file);
  if ("problem" in read) return unread(read.problem);
  let raw: unknown;
  try {
    raw = JSON.parse(read.text);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    return unread(error({ file }, undefined, `is not valid JSON: ${reason}`));
  }
  if (givesKeyTwice(read.text, raw)) {
    const message = "is given twice in the file (JSON would silently keep the last one): keep one";
    const twice = duplicateKeys(read.text).map((path) =>
      error({ file }, excerpt(path.join(".")), message),
    );
    return { value: DEFAULT_PORTAL, problems: twice };
  }
  const parsed = parseRecords(PortalSettings, [{ raw, at: { file } }]);
  return { value: parsed.records[0]?.value ?? DEFAULT_PORTAL, problems: parsed.problems };
}
