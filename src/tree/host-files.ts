// The static host rules written at the root of every tree (`_headers`, `_redirects`): not answers of the API.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  HEADERS_FILE,
  headersFile,
  REDIRECTS_FILE,
  redirectsFile,
} from "../host/static-host/host-rules.js";
import { DEFAULT_REFRESH_SECONDS } from "../routes/max-age.js";
import { ROUTE_LIST } from "../routes/routes.js";
import { replaceFile } from "./replace-file.js";

export const HOST_FILES = [HEADERS_FILE, REDIRECTS_FILE] as const;

/**
 * Each written beside and renamed in, so a host never reads half a file; one that already says the
 * same is left alone (a refresh with nothing new rewrites nothing, and a sync by change time
 * uploads nothing).
 */
export function writeHostFiles(root: string, refreshSeconds = DEFAULT_REFRESH_SECONDS): void {
  const contents = {
    [HEADERS_FILE]: headersFile(ROUTE_LIST, refreshSeconds),
    [REDIRECTS_FILE]: redirectsFile(ROUTE_LIST),
  };
  for (const name of HOST_FILES) {
    if (textOf(join(root, name)) === contents[name]) continue;
    replaceFile(join(root, name), join(root, `.${name}.tmp-${process.pid}`), contents[name]);
  }
}

function textOf(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined; // not there yet, or unreadable: written again
  }
}
