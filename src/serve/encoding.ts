// Content negotiation for gzip and brotli between what the client accepts and the variants a file carries.
import { type ReleaseFile, variantEtag } from "../publish/release.js";

export type Encoding = "br" | "gzip" | "identity";

/** What the client accepts, parsed once per distinct header value (clients send a handful). */
interface Accepted {
  br: number;
  gzip: number;
}

const parsed = new Map<string, Accepted>();
// Bounds the memory a client sending ever-new headers could make us keep.
const PARSED_LIMIT = 256;

function accepted(acceptEncoding: string): Accepted {
  let known = parsed.get(acceptEncoding);
  if (known) return known;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)).find(Boolean);
    weights.set(name, q ? Number(q[1]) : 1);
  }
  const weight = (name: string) => weights.get(name) ?? weights.get("*") ?? 0;
  known = { br: weight("br"), gzip: weight("gzip") };
  if (parsed.size >= PARSED_LIMIT) parsed.clear();
  parsed.set(acceptEncoding, known);
  return known;
}

/** The best encoding the client accepts, by its q-values; br before gzip when they tie. */
export function negotiate(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return "identity";
  const { br, gzip } = accepted(acceptEncoding);
  if (br > 0 && br >= gzip) return "br";
  if (gzip > 0) return "gzip";
  return "identity";
}

/** Each representation gets its own strong ETag (RFC 9110 §8.8.3). */
export function etagFor(file: ReleaseFile, encoding: Encoding): string {
  return encoding === "identity" ? file.etag : variantEtag(file, encoding);
}

/** If-None-Match matches any representation of the same bytes (weak comparison). */
export function notModified(ifNoneMatch: string | undefined, file: ReleaseFile): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch === file.etag) return true; // what a client that kept our tag sends
  if (ifNoneMatch.trim() === "*") return true;
  const base = file.etag.slice(1, -1);
  return ifNoneMatch.split(",").some((tag) => {
    const opaque = tag.trim().replace(/^W\//, "").replace(/^"|"$/g, "");
    return opaque === base || opaque === `${base}-br` || opaque === `${base}-gzip`;
  });
}
