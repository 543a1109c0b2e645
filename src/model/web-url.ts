// A link published on the portal and in GBFS: http(s) only, as readers' browsers open it.
import { z } from "zod";

/** `javascript:` or `data:` would be written into the portal's links as they are. */
export const webUrl = () =>
  z.url({
    protocol: /^https?$/,
    error: "must be an http or https URL, e.g. https://example.org/open-data",
  });
