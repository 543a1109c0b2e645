// Writing responses: the headers every answer carries, JSON errors, and release files from prepared headers and bytes.
import type { IncomingMessage, ServerResponse } from "node:http";
import { JSON_TYPE, type ReleaseFile, type Variants } from "../publish/release.js";
import { ALLOWED_METHODS, PREFLIGHT_MAX_AGE } from "../routes/methods.js";
import { type Encoding, etagFor, negotiate, notModified } from "./encoding.js";

export const ALLOW = ALLOWED_METHODS;

const COMMON = { "Access-Control-Allow-Origin": "*" };

/** An error answer: `{"error": "..."}` as real clients expect, or no body where the specification says so. */
export function sendError(
  response: ServerResponse,
  status: number,
  message: string | null,
  extra: Record<string, string> = {},
): void {
  const headers = { ...COMMON, "Cache-Control": "no-store", ...extra };
  if (message === null) {
    response.writeHead(status, { ...headers, "Content-Length": "0" }).end();
    return;
  }
  const body = Buffer.from(JSON.stringify({ error: message }));
  response.writeHead(status, {
    ...headers,
    "Content-Type": JSON_TYPE,
    "Content-Length": String(body.length),
  });
  response.end(response.req.method === "HEAD" ? undefined : body);
}

export function sendJson(response: ServerResponse, value: unknown): void {
  const body = Buffer.from(JSON.stringify(value));
  response.writeHead(200, {
    ...COMMON,
    "Cache-Control": "no-store",
    "Content-Type": JSON_TYPE,
    "Content-Length": String(body.length),
  });
  response.end(response.req.method === "HEAD" ? undefined : body);
}

export function sendOptions(response: ServerResponse): void {
  response
    .writeHead(204, {
      ...COMMON,
      Allow: ALLOW,
      "Access-Control-Allow-Methods": ALLOW,
      "Access-Control-Max-Age": String(PREFLIGHT_MAX_AGE),
    })
    .end();
}

/** What is the same for every request of one file: headers per encoding, and the body to end with. */
interface Prepared {
  headers: Record<Encoding, string[]>;
  /** The body as one buffer when it is small enough to keep joined; big ones are streamed. */
  joined: Uint8Array | null;
}

// Computed at the first request of a file and dropped with it: files live as long as a release uses them.
const prepared = new WeakMap<ReleaseFile, Prepared>();
// Joining costs one copy kept beside the chunks; above this a body is streamed in batches instead.
const JOIN_LIMIT = 1 << 20;
// Big enough that a 69 MB list is ~270 socket writes, small enough to copy in a blink.
const BATCH = 256 * 1024;

function prepare(file: ReleaseFile): Prepared {
  let known = prepared.get(file);
  if (known) return known;
  const common = [
    "Access-Control-Allow-Origin",
    "*",
    "Content-Type",
    file.contentType,
    "Vary",
    "Accept-Encoding",
  ];
  const headers = (encoding: Encoding) => [...common, "ETag", etagFor(file, encoding)];
  const joined =
    file.body.length === 1
      ? (file.body[0] as Uint8Array)
      : file.size <= JOIN_LIMIT
        ? Buffer.concat(file.body, file.size)
        : null;
  known = {
    headers: { identity: headers("identity"), gzip: headers("gzip"), br: headers("br") },
    joined,
  };
  prepared.set(file, known);
  return known;
}

/**
 * A release file: 304 when the client has it, otherwise its precompressed variant or its bytes.
 * Nothing is compressed here; a file without variants is always sent as it is.
 */
export function sendFile(
  request: IncomingMessage,
  response: ServerResponse,
  file: ReleaseFile,
  cacheControl: string,
): Promise<void> | undefined {
  const { headers, joined } = prepare(file);
  const encoding = file.variants ? negotiate(header(request, "accept-encoding")) : "identity";
  const base = headers[encoding];
  if (notModified(header(request, "if-none-match"), file)) {
    response.writeHead(304, [...base, "Cache-Control", cacheControl]).end();
    return;
  }
  const body = encoding === "identity" ? joined : (file.variants as Variants)[encoding];
  const size = body ? body.byteLength : file.size;
  const head = [...base, "Cache-Control", cacheControl, "Content-Length", String(size)];
  if (encoding !== "identity") head.push("Content-Encoding", encoding);
  response.writeHead(200, head);
  if (request.method === "HEAD") response.end();
  else if (body) response.end(body);
  else return sendChunks(response, file.body);
}

/** A big body in batches, waiting for the socket to drain: a million stations are never copied whole. */
async function sendChunks(response: ServerResponse, chunks: readonly Uint8Array[]): Promise<void> {
  let batch: Uint8Array[] = [];
  let size = 0;
  for (const chunk of chunks) {
    batch.push(chunk);
    size += chunk.byteLength;
    if (size < BATCH) continue;
    const more = response.write(Buffer.concat(batch, size));
    batch = [];
    size = 0;
    if (!more) await drained(response);
    if (response.destroyed) return; // the client left
  }
  response.end(size > 0 ? Buffer.concat(batch, size) : undefined);
}

function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off("drain", done);
      response.off("close", done);
      resolve();
    };
    response.on("drain", done);
    response.on("close", done);
  });
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(",") : value;
}
