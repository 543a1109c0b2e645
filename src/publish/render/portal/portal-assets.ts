// The portal's fixed files (its script, stylesheet, and the bundled Swagger UI), read once from the package.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export interface PortalAsset {
  /** Where the file goes, relative to the tree's root. */
  path: string;
  body: Buffer;
  contentType: string;
}

// These files ship with velodata like its code: reading them is loading code, not reading input.
// This module is four folders below the package root, in src/ and in dist/ alike.
const PAGE = join(
  dirname(fileURLToPath(import.meta.url)),
  "../../../../src/publish/render/portal/page",
);
const SWAGGER_UI = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

const JS = "text/javascript; charset=utf-8";
const CSS = "text/css; charset=utf-8";
const TEXT = "text/plain; charset=utf-8";

let cached: { page: PortalAsset[]; docs: PortalAsset[] } | undefined;

const asset = (path: string, file: string, contentType: string): PortalAsset => ({
  path,
  body: readFileSync(file),
  contentType,
});

/** `page`: the portal's own script and stylesheet; `docs`: what the API reference page needs. */
export function portalAssets(): { page: PortalAsset[]; docs: PortalAsset[] } {
  cached ??= {
    page: [
      asset("/portal/portal.js", join(PAGE, "portal.js"), JS),
      asset("/portal/portal.css", join(PAGE, "portal.css"), CSS),
      asset("/portal/icon.svg", join(PAGE, "icon.svg"), "image/svg+xml"),
    ],
    docs: [
      asset("/docs/docs.js", join(PAGE, "docs.js"), JS),
      asset("/docs/swagger-ui-bundle.js", join(SWAGGER_UI, "swagger-ui-bundle.js"), JS),
      asset("/docs/swagger-ui.css", join(SWAGGER_UI, "swagger-ui.css"), CSS),
      asset(
        "/docs/swagger-ui-bundle.js.LICENSE.txt",
        join(SWAGGER_UI, "swagger-ui-bundle.js.LICENSE.txt"),
        TEXT,
      ),
      asset("/docs/LICENSE.txt", join(SWAGGER_UI, "LICENSE"), TEXT),
    ],
  };
  return cached;
}
