// Content negotiation for gzip and brotli between what the client accepts and the variants a file carries.
import { type ReleaseFile, variantEtag } from "../publish/release.js";

export type Encoding = "br" | "gzip" | "identity";

/**
 * What the client accepts, parsed once per distinct header value (clients send a handful).
 * `identity`: its weight when the client names it, else 0 (acceptable, preferred to nothing).
 */
interface Accepted {
  br: number;
  gzip: number;
  identity: number;
}

const parsed = new Map<string, Accepted>();
// Bounds the memory a client sending ever-new headers could make us keep.
const PARSED_LIMIT = 256;

function accepted(acceptEncoding: string): Accepted {
  let known = parsed.get(acceptEncoding);
  if (known) return known;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [named, ...params] = part.toLowerCase().split(";");
    // White space may stand on either side of the semicolon (RFC 9110 §12.4.2).
    const name = named?.trim();
    if (!name) continue;
    weights.set(name, weightOf(params));
  }
  const weight = (name: string) => weights.get(name) ?? weights.get("*") ?? 0;
  // RFC 9110 §8.4.1.3: a recipient should take x-gzip for gzip.
  const gzip = weights.get("gzip") ?? weights.get("x-gzip") ?? weight("gzip");
  known = { br: weight("br"), gzip, identity: weights.get("identity") ?? 0 };
  if (parsed.size >= PARSED_LIMIT) parsed.clear();
  parsed.set(acceptEncoding, known);
  return known;
}

/**
 * An entry's q-value (RFC 9110 §12.4.2: 0 to 1, three decimals at most); one written otherwise
 * (`q=abc`, `q=2`) accepts nothing, as nginx reads it.
 */
function weightOf(params: readonly string[]): number {
  const q = params.find((param) => /^\s*q=/.test(param));
  if (q === undefined) return 1;
  const value = /^\s*q=(0(\.\d{0,3})?|1(\.0{0,3})?)\s*$/.exec(q)?.[1];
  return value === undefined ? 0 : Number(value);
}

/**
 * The best encoding the client accepts, by its q-values: br before gzip when they tie, either
 * before identity unless the client weighs identity higher (`identity;q=1, gzip;q=0.5`).
 */
export function negotiate(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return "identity";
  const { br, gzip, identity } = accepted(acceptEncoding);
  const best = Math.max(br, gzip);
  if (best === 0 || identity > best) return "identity";
  return br >= gzip ? "br" : "gzip";
}

/** Each representation gets its own strong ETag (RFC 9110 §8.8.3). */
export function etagFor(file: ReleaseFile, encoding: Encoding): string {
  return encoding === "identity" ? file.etag : variantEtag(file, encoding);
}

/**
 * Which representation of the file a client's If-None-Match names (weak comparison), null for
 * none: the 304 then carries that one's tag, so that a cache finds the response it stored (RFC
 * 9111 §4.3.4), even when it now negotiates another encoding. `*`, or several of the file's tags,
 * name the representation negotiated (`wanted`) when they can.
 */
export function matchedEncoding(
  ifNoneMatch: string | undefined,
  file: ReleaseFile,
  wanted: Encoding,
): Encoding | null {
  if (!ifNoneMatch) return null;
  if (ifNoneMatch === file.etag) return "identity"; // what a client that kept our tag sends
  if (ifNoneMatch.trim() === "*") return wanted;
  const base = file.etag.slice(1, -1);
  let matched: Encoding | null = null;
  for (const tag of ifNoneMatch.split(",")) {
    const opaque = tag.trim().replace(/^W\//, "").replace(/^"|"$/g, "");
    const named: Encoding | null =
      opaque === base
        ? "identity"
        : opaque === `${base}-br`
          ? "br"
          : opaque === `${base}-gzip`
            ? "gzip"
            : null;
    // A file without variants has one representation: other tags are an older file's.
    if (named !== "identity" && !file.variants) continue;
    if (named === wanted) return named;
    matched ??= named;
  }
  return matched;
}

/**
 * Whether an If-Match holds for the representation tagged `etag` (RFC 9110 §13.1.1): `*` (the
 * file exists, or no answer would be sent), or a list naming that tag. The comparison is strong: a
 * weak tag (`W/"…"`) never matches, nor the tag of another encoding of the same bytes.
 */
export function ifMatchHolds(ifMatch: string, etag: string): boolean {
  if (ifMatch === etag) return true; // what a client that kept our tag sends
  return ifMatch.split(",").some((tag) => {
    const trimmed = tag.trim();
    return trimmed === "*" || trimmed === etag;
  });
}
