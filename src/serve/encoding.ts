// Content negotiation for gzip and brotli, from bytes compressed once per release file and kept with it.
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { ReleaseFile } from "../publish/release.js";

export type Encoding = "br" | "gzip" | "identity";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

// Below this, compression costs more than it saves.
const MIN_SIZE = 256;
// Big lists change every minute: a fast brotli level keeps a refresh well inside its minute.
const BIG = 1 << 20;

/** The best encoding the client accepts, by its q-values; br before gzip when they tie. */
export function negotiate(acceptEncoding: string | undefined, size: number): Encoding {
  if (!acceptEncoding || size < MIN_SIZE) return "identity";
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)).find(Boolean);
    weights.set(name, q ? Number(q[1]) : 1);
  }
  const weight = (name: string) => weights.get(name) ?? weights.get("*") ?? 0;
  if (weight("br") > 0 && weight("br") >= weight("gzip")) return "br";
  if (weight("gzip") > 0) return "gzip";
  return "identity";
}

// Kept per file object: a file that a refresh did not change keeps its compressed bytes too.
const compressed = new WeakMap<ReleaseFile, Map<Encoding, Promise<Buffer>>>();

export function encodedBody(
  file: ReleaseFile,
  encoding: Exclude<Encoding, "identity">,
): Promise<Buffer> {
  let variants = compressed.get(file);
  if (!variants) {
    variants = new Map();
    compressed.set(file, variants);
  }
  let body = variants.get(encoding);
  if (!body) {
    const raw = Buffer.concat(file.body);
    body =
      encoding === "br"
        ? brotli(raw, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: file.size > BIG ? 5 : 9,
              [constants.BROTLI_PARAM_SIZE_HINT]: file.size,
            },
          })
        : gzipAsync(raw, { level: 6 });
    variants.set(encoding, body);
  }
  return body;
}

/** Each representation gets its own strong ETag (RFC 9110 §8.8.3). */
export function etagFor(file: ReleaseFile, encoding: Encoding): string {
  return encoding === "identity" ? file.etag : `${file.etag.slice(0, -1)}-${encoding}"`;
}

/** If-None-Match matches any representation of the same bytes (weak comparison). */
export function notModified(ifNoneMatch: string | undefined, file: ReleaseFile): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  const base = file.etag.slice(1, -1);
  return ifNoneMatch.split(",").some((tag) => {
    const opaque = tag.trim().replace(/^W\//, "").replace(/^"|"$/g, "");
    return opaque === base || opaque === `${base}-br` || opaque === `${base}-gzip`;
  });
}
