// A link published on the portal and in GBFS: http(s) only, as readers' browsers open it.
import { z } from "zod";

/**
 * What RFC 3986 lets a URI hold: the GBFS schemas' `format: "uri"` refuses a space, an accent or
 * a `|` as they are (browsers and the WHATWG parser take them), and a `%` not followed by two
 * hex digits.
 */
const URI_CHARACTERS = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;

/** `javascript:` or `data:` would be written into the portal's links as they are. */
export const webUrl = () =>
  z
    .url({
      protocol: /^https?$/,
      error: "must be an http or https URL, e.g. https://example.org/open-data",
    })
    .refine((value) => URI_CHARACTERS.test(value), {
      error: (issue) => `must be written as a URI, ${asUri(String(issue.input))}`,
      // Only of what is an http(s) URL already: one message is enough.
      when: (payload) => payload.issues.length === 0,
    });

/** How to write it: percent-encoded where it can be, or what is wrong with a `%`. */
function asUri(value: string): string {
  if (/%(?![0-9A-Fa-f]{2})/.test(value))
    return "and a % must start a percent-encoded byte (%25 for % itself)";
  // The WHATWG parser encodes spaces and accents (and a host's in punycode), not `|`, `{` or `^`.
  const encoded = new URL(value).href.replace(/[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/g, (sign) =>
    encodeURIComponent(sign),
  );
  return `with its spaces, accents and signs percent-encoded: ${JSON.stringify(encoded)}`;
}
