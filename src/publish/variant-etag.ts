// A compressed variant's ETag, derived from its file's.
import type { ReleaseFile, Variants } from "./release.js";

/** Each representation gets its own strong ETag (RFC 9110 §8.8.3): the file's, suffixed. */
export const variantEtag = (file: Pick<ReleaseFile, "etag">, encoding: keyof Variants): string =>
  `${file.etag.slice(0, -1)}-${encoding}"`;
