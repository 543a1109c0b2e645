// Turns a raw request path into decoded segments, refusing anything that tries to step outside the tree.

/** `folder`: the path ends in `/` (a folder's page, `/docs/`). */
export type SafePath =
  | { ok: true; segments: string[]; folder: boolean }
  | { ok: false; reason: string };

// Encoded slash, backslash, NUL and percent: a segment must not smuggle any of them past one decoding.
const FORBIDDEN_ENCODED = /%(2f|5c|00|25)/i;
// eslint-style ranges: C0 controls and DEL.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The 400's error for a path safePath refuses. */
export const badPathMessage = (reason: string): string => `Bad request path: ${reason}`;

export function safePath(rawPath: string): SafePath {
  if (!rawPath.startsWith("/")) return { ok: false, reason: "the path must start with /" };
  if (rawPath.includes("\\")) return { ok: false, reason: "backslashes are not allowed in paths" };
  if (rawPath.includes("//"))
    return { ok: false, reason: "empty path segments (//) are not allowed" };
  if (FORBIDDEN_ENCODED.test(rawPath))
    return { ok: false, reason: "encoded /, \\, NUL or % are not allowed in paths" };
  const segments: string[] = [];
  for (const raw of rawPath.slice(1).split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw); // throws on malformed escapes and overlong UTF-8 (%c0%ae)
    } catch {
      return { ok: false, reason: "the path has a malformed percent-encoding" };
    }
    if (segment === "." || segment === "..")
      return { ok: false, reason: "dot segments are not allowed in paths" };
    if (CONTROL.test(segment))
      return { ok: false, reason: "control characters are not allowed in paths" };
    if (segment !== "") segments.push(segment);
  }
  return { ok: true, segments, folder: rawPath.endsWith("/") };
}
