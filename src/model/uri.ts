// Whether a URL is written as a URI, as the GBFS schemas' `format: "uri"` reads it (without zod:
// the command line checks --base-url with it before any command's modules are loaded).

/**
 * What RFC 3986 lets a URI hold: the GBFS schemas refuse a space, an accent or a `|` as they are
 * (browsers and the WHATWG parser take them), a `%` not followed by two hex digits, brackets
 * outside an IPv6 host and a second `#`.
 */
const URI_CHARACTERS = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;

/** `scheme://authority`, the authority captured: what comes before the path, query and fragment. */
const SCHEME_AND_AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i;

/** What is wrong with `url` (an absolute http(s) URL) as a URI, with how to write it; null if nothing. */
export function notUri(url: string): string | null {
  if (/%(?![0-9A-Fa-f]{2})/.test(url))
    return "must be written as a URI, and a % must start a percent-encoded byte (%25 for % itself)";
  const afterHost = url.replace(SCHEME_AND_AUTHORITY, "");
  const hash = afterHost.indexOf("#");
  if (
    URI_CHARACTERS.test(url) &&
    !/[[\]]/.test(afterHost) &&
    (hash < 0 || !afterHost.includes("#", hash + 1))
  )
    return null;
  const encoded = asUri(url);
  // What percent-encoding cannot mend: a sign in the host (the WHATWG parser keeps `{` there).
  if (!URI_CHARACTERS.test(encoded)) {
    // As written: without the user's part and the port, not in punycode.
    const authority = SCHEME_AND_AUTHORITY.exec(url)?.[1] ?? "";
    const host = authority.replace(/^.*@/, "").replace(/:\d*$/, "");
    return `must be written as a URI: its host ${JSON.stringify(host)} is no host name`;
  }
  return `must be written as a URI, with its spaces, accents and signs percent-encoded: ${JSON.stringify(encoded)}`;
}

/** `url` percent-encoded where RFC 3986 wants it. */
function asUri(url: string): string {
  // The WHATWG parser encodes spaces and accents (and a host's in punycode), not `|`, `{`, `^`,
  // brackets after the host or a second `#`.
  const href = new URL(url).href;
  const host = SCHEME_AND_AUTHORITY.exec(href)?.[0] ?? "";
  const rest = href.slice(host.length);
  const hash = rest.indexOf("#");
  const encode = (text: string, keep: RegExp) =>
    text.replace(keep, (sign) => encodeURIComponent(sign));
  const beforeHash = hash < 0 ? rest : rest.slice(0, hash);
  const fragment =
    hash < 0 ? "" : `#${encode(rest.slice(hash + 1), /[^A-Za-z0-9\-._~:/?@!$&'()*+,;=%]/g)}`;
  return host + encode(beforeHash, /[^A-Za-z0-9\-._~:/?#@!$&'()*+,;=%]/g) + fragment;
}
