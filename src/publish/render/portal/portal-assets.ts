// The portal's fixed files (its script, stylesheet, and the bundled Swagger UI), read once from the package.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PortalFileName } from "../../../routes/routes.js";

/** One file of the portal: its row in the route table (path, content type) and its bytes. */
export interface PortalAsset {
  endpoint: PortalFileName;
  body: Buffer;
}

// These files ship with velodata like its code: reading them is loading code, not reading input.
// This module is four folders below the package root, in src/ and in dist/ alike.
export const PAGE = join(
  dirname(fileURLToPath(import.meta.url)),
  "../../../../src/publish/render/portal/page",
);
const SWAGGER_UI = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

let cached: { page: PortalAsset[]; docs: PortalAsset[] } | undefined;

const asset = (endpoint: PortalFileName, file: string): PortalAsset => ({
  endpoint,
  body: readFileSync(file),
});

/** `page`: the portal's own script and stylesheet; `docs`: what the API reference page needs. */
export function portalAssets(): { page: PortalAsset[]; docs: PortalAsset[] } {
  cached ??= {
    page: [
      asset("portalScript", join(PAGE, "portal.js")),
      asset("portalStyle", join(PAGE, "portal.css")),
      asset("portalIcon", join(PAGE, "icon.svg")),
    ],
    docs: [
      asset("docsScript", join(PAGE, "docs.js")),
      asset("docsStyle", join(PAGE, "docs.css")),
      asset("swaggerScript", join(SWAGGER_UI, "swagger-ui-bundle.js")),
      asset("swaggerStyle", join(SWAGGER_UI, "swagger-ui.css")),
      asset("swaggerNotices", join(SWAGGER_UI, "swagger-ui-bundle.js.LICENSE.txt")),
      asset("swaggerLicense", join(SWAGGER_UI, "LICENSE")),
    ],
  };
  return cached;
}
