// `_headers` and `_redirects` (Netlify, Cloudflare Pages) for the public parts of the tree, derived from the route table.
import { DEFAULT_REFRESH_SECONDS, keptAs, STATIC_CACHE_CONTROL } from "../../routes/max-age.js";
import { EXPOSED_HEADERS, NO_SNIFF } from "../../routes/methods.js";
import type { AnyRoute } from "../../routes/route.js";
import { dispositionOf, fileOf } from "../../routes/routes.js";

/**
 * Static answers as `serve` sends them; dynamic ones at most until the next refresh, the tree's
 * period (the `ttl` its GBFS station_status feeds say).
 */
const cacheControl = (route: AnyRoute, refreshSeconds: number): string =>
  keptAs(route) === "static" ? STATIC_CACHE_CONTROL : `public, max-age=${refreshSeconds}`;

export const HEADERS_FILE = "_headers";
export const REDIRECTS_FILE = "_redirects";

/** A placeholder alone in its segment is a `:name`; one sharing its segment (`{contract}.csv`) a `*`. */
function hostPattern(path: string): string {
  return path
    .split("/")
    .map((segment) => (/^\{(\w+)\}$/.test(segment) ? `:${segment.slice(1, -1)}` : segment))
    .join("/")
    .replace(/\{\w+\}/g, "*");
}

const publicFiles = (routes: readonly AnyRoute[]) =>
  routes.filter((route) => route.access === "public" && route.served === "release");

/**
 * The route's file, each parameter of a fixed set of values written out (`{feed}.json` as
 * `system_information.json`, …): Cloudflare Pages and Netlify apply every `_headers` rule a path
 * matches and join a header given twice (`Access-Control-Allow-Origin: *, *`, which browsers
 * refuse), so a `*.json` beside `station_status.json` would give that feed two lifetimes.
 */
function filesOf(route: AnyRoute): string[] {
  let files = [`/${fileOf(route.path)}`];
  for (const [name, param] of Object.entries(route.params)) {
    if (param.kind !== "oneOf") continue;
    files = files.flatMap((file) =>
      param.values.map((value) => file.replaceAll(`{${name}}`, value)),
    );
  }
  return files;
}

/**
 * The URL paths a rule is written for: the route's files, and a folder's own path (`/`, `/docs/`)
 * beside its `index.html`. Hosts match rules on the URL asked for, and Cloudflare Pages sends a
 * request for `/index.html` to `/`.
 */
function rulePathsOf(route: AnyRoute): string[] {
  const files = filesOf(route);
  return route.path.endsWith("/") ? [route.path, ...files] : files;
}

/**
 * One block per public file of the tree: its type, CORS, cache lifetime and, for a file to save,
 * its Content-Disposition; no file matches two.
 */
export function headersFile(
  routes: readonly AnyRoute[],
  refreshSeconds = DEFAULT_REFRESH_SECONDS,
): string {
  const blocks = publicFiles(routes).flatMap((route) => {
    const disposition = dispositionOf(route);
    return rulePathsOf(route).map((file) =>
      [
        hostPattern(file),
        `  Content-Type: ${route.contentType}`,
        "  Access-Control-Allow-Origin: *",
        `  Access-Control-Expose-Headers: ${EXPOSED_HEADERS}`,
        `  ${NO_SNIFF.name}: ${NO_SNIFF.value}`,
        `  Cache-Control: ${cacheControl(route, refreshSeconds)}`,
        ...(disposition ? [`  Content-Disposition: ${disposition}`] : []),
      ].join("\n"),
    );
  });
  return `# Written by velodata from its route table: the public answers' headers for static hosts.\n${blocks.join("\n\n")}\n`;
}

/** Rewrites (status 200) from a public URL without extension to its `.json` file. */
export function redirectsFile(routes: readonly AnyRoute[]): string {
  const lines = publicFiles(routes)
    .filter((route) => `/${fileOf(route.path)}` !== route.path)
    .map((route) => `${hostPattern(route.path)}  ${hostPattern(`/${fileOf(route.path)}`)}  200`);
  return `# Written by velodata from its route table: public URLs to the files that answer them.\n${lines.join("\n")}\n`;
}
