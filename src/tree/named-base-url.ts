// The public base URL a tree names in its own answers: for a tree whose manifest records none (one
// an older velodata wrote), so that the first refresh after an upgrade keeps the public address.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileOf, ROUTES } from "../routes/routes.js";

/**
 * The URL the tree's OpenAPI document gives as its server (every velodata wrote `servers` from
 * --base-url), or undefined when the tree has no such document or it names no http(s) URL.
 */
export function baseUrlNamedIn(tree: string): string | undefined {
  try {
    const document = JSON.parse(readFileSync(join(tree, fileOf(ROUTES.openapi.path)), "utf8")) as {
      servers?: { url?: unknown }[];
    };
    const url = document.servers?.[0]?.url;
    if (typeof url !== "string") return undefined;
    const { protocol } = new URL(url);
    return protocol === "http:" || protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}
