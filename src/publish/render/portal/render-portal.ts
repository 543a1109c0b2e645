// The portal: `/index.html` for people, its script and stylesheet, and the API reference under `/docs/`.
import { type Html, html, markup } from "./html.js";
import { type PortalAsset, portalAssets } from "./portal-assets.js";
import type { PortalInput } from "./portal-input.js";
import {
  apiSection,
  contractsSection,
  downloadsSection,
  feedsSection,
  inLanguage,
  local,
  mapSection,
  referenceSection,
} from "./portal-sections.js";

/** Every file of the portal, in a fixed order: same input, same bytes. */
export function renderPortal(input: PortalInput): PortalAsset[] {
  const { page, docs } = portalAssets();
  const files: PortalAsset[] = [htmlFile("portal", portalPage(input)), ...page];
  if (input.openapi) {
    files.push(htmlFile("docs", referencePage(input, input.openapi)), ...docs);
  }
  return files;
}

const htmlFile = (endpoint: "portal" | "docs", page: Html): PortalAsset => ({
  endpoint,
  body: Buffer.from(`<!doctype html>\n${markup(page)}\n`, "utf8"),
});

// Each page carries its own Content-Security-Policy, so that every host of the tree (velodata serve,
// nginx, a CDN, object storage) sends it alike: nothing runs or loads but the page's own files, a
// text of the data that held markup could run no script. (frame-ancestors cannot be said so.)
const PORTAL_POLICY =
  "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'";

/**
 * Swagger UI sets inline styles, and "Try it out" asks the API at its base URL, which may be
 * another origin than the host of the tree (a CDN's).
 */
function referencePolicy(baseUrl: string | null): string {
  const api = baseUrl ? ` ${new URL(baseUrl).origin}` : "";
  return `default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'${api}; object-src 'none'; base-uri 'none'; form-action 'self'`;
}

function portalPage(input: PortalInput): Html {
  // GBFS auto-discovery (GBFS v3.0, "Auto-Discovery"): one link per system on the landing page.
  const discovery = input.contracts.map((c) =>
    c.gbfs
      ? html`<link rel="gbfs" type="application/json" href="${local(c.gbfs.discoveryV3)}" title="${c.commercialName}">\n`
      : "",
  );
  return html`<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${PORTAL_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${input.serviceName}: bike-sharing open data</title>
<meta name="description" content="${input.description}">
<link rel="icon" href="portal/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="portal/portal.css">
${discovery}<script src="portal/portal.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to the content</a>
<header>
<h1${inLanguage(input, input.serviceName)}>${input.serviceName}</h1>
<p${inLanguage(input, input.description)}>${input.description}</p>
<nav aria-label="Sections"><a href="#contracts">Contracts</a> <a href="#map">Map</a> <a href="#api">API</a> <a href="#downloads">Downloads</a> <a href="#feeds">GBFS feeds</a> <a href="#reference">API reference</a></nav>
</header>
<main id="main">
${contractsSection(input)}
${mapSection(input)}
${apiSection(input)}
${downloadsSection(input)}
${feedsSection(input)}
${referenceSection(input)}
</main>
<footer>
<p>${generated(input.generatedAt)}<span id="live-data" hidden></span></p>
</footer>
</body>
</html>`;
}

// Its links go up and down again (`../docs/…`): from `/docs/` and from `/docs` alike, which a plain
// static server (sirv) answers with this page, not a redirect, they name the same files.
function referencePage(input: PortalInput, openapi: string): Html {
  return html`<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${referencePolicy(input.baseUrl)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${input.serviceName}: API reference</title>
<link rel="icon" href="../portal/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="../docs/swagger-ui.css">
<link rel="stylesheet" href="../docs/docs.css">
<script src="../docs/swagger-ui-bundle.js" defer></script>
<script src="../docs/docs.js" defer></script>
</head>
<body data-openapi="../${local(openapi)}" data-base="${input.baseUrl ?? ""}">
<header><nav><a href="../">Back to <span${inLanguage(input, input.serviceName)}>${input.serviceName}</span></a></nav></header>
<noscript><p>This reference needs JavaScript. Without it, read the API's OpenAPI document itself: <a href="../${local(openapi)}">${local(openapi)}</a>.</p></noscript>
<div id="swagger-ui"></div>
</body>
</html>`;
}

/**
 * `Static data as of 2026-11-20 08:16:00 UTC. ` from `2026-11-20T08:16:00.000Z`: said in UTC, and
 * so, for a reader without the script; the page's script says it in the reader's own zone.
 */
const generated = (iso: string | null): Html | string =>
  iso
    ? html`Static data as of <time datetime="${iso}">${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC</time>. `
    : "";
