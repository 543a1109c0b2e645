// The static host rules written at the root of every tree (`_headers`, `_redirects`): not answers of the API.
import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  HEADERS_FILE,
  headersFile,
  REDIRECTS_FILE,
  redirectsFile,
} from "../host/static-host/host-rules.js";
import { ROUTE_LIST } from "../routes/routes.js";

export const HOST_FILES = [HEADERS_FILE, REDIRECTS_FILE] as const;

/** Each written beside and renamed in, so a host never reads half a file. */
export function writeHostFiles(root: string): void {
  const contents = {
    [HEADERS_FILE]: headersFile(ROUTE_LIST),
    [REDIRECTS_FILE]: redirectsFile(ROUTE_LIST),
  };
  for (const name of HOST_FILES) {
    const temporary = join(root, `.${name}.tmp-${process.pid}`);
    writeFileSync(temporary, contents[name]);
    renameSync(temporary, join(root, name));
  }
}
