// A link published on the portal and in GBFS: http(s) only, as readers' browsers open it, and
// written as a URI, as the GBFS schemas' `format: "uri"` reads it.
import { z } from "zod";
import { notUri } from "./uri.js";

/** What webUrl says of a link of another scheme: `javascript:` or `data:`, `ftp:`. */
export const WEB_URL_EXPECTED = "must be an http or https URL, e.g. https://example.org/open-data";

/** `javascript:` or `data:` would be written into the portal's links as they are. */
export const webUrl = () =>
  z
    .url({
      protocol: /^https?$/,
      error: WEB_URL_EXPECTED,
    })
    .refine((value) => notUri(value) === null, {
      error: (issue) => notUri(String(issue.input)) ?? "",
      // Only of what is an http(s) URL already: one message is enough.
      when: (payload) => payload.issues.length === 0,
    });
