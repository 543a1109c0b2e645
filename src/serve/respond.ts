// Writing responses: the headers every answer carries, JSON errors, and release files from prepared headers and bytes.
import type { IncomingMessage, ServerResponse } from "node:http";
import { JSON_TYPE, type ReleaseFile, type Variants } from "../publish/release.js";
import { NOT_STORED_CACHE_CONTROL, STATIC_CACHE_CONTROL } from "../routes/max-age.js";
import {
  ALLOWED_METHODS,
  EXPOSED_HEADERS,
  NO_SNIFF,
  PREFLIGHT_ALLOWED_HEADERS,
  PREFLIGHT_MAX_AGE,
} from "../routes/methods.js";
import { PRECONDITION_FAILED, RANGE_NOT_SATISFIABLE } from "../routes/outcomes.js";
import { withFields } from "../with-fields.js";
import { bytesBetween, rangeAsked } from "./byte-ranges.js";
import { type Encoding, etagFor, ifMatchHolds, matchedEncoding, negotiate } from "./encoding.js";

export const ALLOW = ALLOWED_METHODS;

const COMMON = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": EXPOSED_HEADERS,
  [NO_SNIFF.name]: NO_SNIFF.value,
};
// The same as a flat list of names and values, as a file's heads are given to writeHead.
const COMMON_PAIRS = Object.entries(COMMON).flat();
const NOT_STORED = withFields<Record<string, string>>(COMMON, {
  "Cache-Control": NOT_STORED_CACHE_CONTROL,
});

/** An error answer: `{"error": "..."}` as real clients expect, or no body where the specification says so. */
export function sendError(
  response: ServerResponse,
  status: number,
  message: string | null,
  extra: Record<string, string> = {},
): void {
  // withFields, not spreads: a hidden class of its own for each answer (see with-fields.ts).
  const headers = withFields<Record<string, string>>(NOT_STORED, extra);
  if (message === null) {
    response.writeHead(status, withFields(headers, { "Content-Length": "0" })).end();
    return;
  }
  const body = Buffer.from(JSON.stringify({ error: message }));
  response.writeHead(
    status,
    withFields(headers, { "Content-Type": JSON_TYPE, "Content-Length": String(body.length) }),
  );
  response.end(response.req.method === "HEAD" ? undefined : body);
}

/** A permanent move (a folder's page asked without its slash), cacheable as any static answer. */
export function sendRedirect(response: ServerResponse, location: string): void {
  response
    .writeHead(
      301,
      withFields<Record<string, string>>(COMMON, {
        Location: location,
        "Cache-Control": STATIC_CACHE_CONTROL,
        "Content-Length": "0",
      }),
    )
    .end();
}

// An answer only this machine's operators get (the whole /status): no page of another origin may
// read it, as one open in a browser on the server's own machine otherwise could (its folders, keys).
const NOT_STORED_NOT_SHARED = {
  [NO_SNIFF.name]: NO_SNIFF.value,
  "Cache-Control": NOT_STORED_CACHE_CONTROL,
};

/** `shared`: whether pages of any origin may read it (CORS), as every answer of the API. */
export function sendJson(
  response: ServerResponse,
  value: unknown,
  status = 200,
  shared = true,
): void {
  const body = Buffer.from(JSON.stringify(value));
  response.writeHead(
    status,
    withFields<Record<string, string>>(shared ? NOT_STORED : NOT_STORED_NOT_SHARED, {
      "Content-Type": JSON_TYPE,
      "Content-Length": String(body.length),
    }),
  );
  response.end(response.req.method === "HEAD" ? undefined : body);
}

// The same for every preflight.
const PREFLIGHT = withFields<Record<string, string>>(COMMON, {
  Allow: ALLOW,
  "Access-Control-Allow-Methods": ALLOW,
  "Access-Control-Allow-Headers": PREFLIGHT_ALLOWED_HEADERS,
  "Access-Control-Max-Age": String(PREFLIGHT_MAX_AGE),
});

export function sendOptions(response: ServerResponse): void {
  response.writeHead(204, PREFLIGHT).end();
}

/** The head of one representation, for the Cache-Control it was last sent with. */
interface Head {
  cacheControl: string;
  ok: string[];
  notModified: string[];
}

/** What is the same for every request of one file: heads per encoding, and the body to end with. */
interface Prepared {
  heads: Record<Encoding, Head>;
  /** The body as one buffer, or null: kept in chunks and written in batches. */
  joined: Uint8Array | null;
}

// Computed at the first request of a file and dropped with it: files live as long as a release uses them.
const prepared = new WeakMap<ReleaseFile, Prepared>();
// A joined body is one end() like a static server's, at the cost of a copy beside the chunks: bodies
// are joined on their first request while all joined copies alive stay under this; past it (a
// million stations' lists) they are written in batches.
const JOIN_BUDGET = 256 * 1024 * 1024;
let joinedBytes = 0;
const joinedFreed = new FinalizationRegistry<number>((size) => {
  joinedBytes -= size;
});
// Big enough that a 700 MB list is ~2,700 socket writes; one buffer per response, filled again.
const BATCH = 256 * 1024;

function prepare(file: ReleaseFile): Prepared {
  let known = prepared.get(file);
  if (known) return known;
  const head = (): Head => ({ cacheControl: "", ok: [], notModified: [] });
  known = {
    heads: { identity: head(), gzip: head(), br: head() },
    joined: join(file),
  };
  prepared.set(file, known);
  return known;
}

function join(file: ReleaseFile): Uint8Array | null {
  if (file.body.length === 1) return file.body[0] as Uint8Array;
  if (joinedBytes + file.size > JOIN_BUDGET) return null;
  const joined = Buffer.concat(file.body, file.size);
  joinedBytes += file.size;
  joinedFreed.register(joined, file.size);
  return joined;
}

/** The head for this Cache-Control, made again only when it changes (once a second for station answers). */
function headFor(
  file: ReleaseFile,
  encoding: Encoding,
  head: Head,
  cacheControl: string,
  disposition: string | undefined,
): Head {
  if (head.cacheControl === cacheControl) return head;
  const notModified = [
    ...COMMON_PAIRS,
    "ETag",
    etagFor(file, encoding),
    "Cache-Control",
    cacheControl,
  ];
  // Only an answer with variants varies with Accept-Encoding (nginx's gzip_vary says the same);
  // one header less for the station answers, the most asked.
  if (file.variants) notModified.push("Vary", "Accept-Encoding");
  const size =
    encoding === "identity" ? file.size : (file.variants as Variants)[encoding].byteLength;
  // A 304 carries no representation metadata but what guides a cache (RFC 9110 §15.4.5): the
  // type is the stored response's, as nginx's 304 leaves it.
  const ok = [...notModified, "Content-Type", file.contentType, "Content-Length", String(size)];
  if (encoding !== "identity") ok.push("Content-Encoding", encoding);
  // A file to save says that a download cut short can be resumed (any answer serves a Range).
  if (disposition) ok.push("Content-Disposition", disposition, "Accept-Ranges", "bytes");
  head.cacheControl = cacheControl;
  head.ok = ok;
  head.notModified = notModified;
  return head;
}

/**
 * A release file: 304 when the client has it, otherwise its precompressed variant or its bytes.
 * Nothing is compressed here; a file without variants is always sent as it is. `disposition` is
 * its route's, the same at every request of the file.
 */
export function sendFile(
  request: IncomingMessage,
  response: ServerResponse,
  file: ReleaseFile,
  cacheControl: string,
  disposition?: string,
): Promise<void> | undefined {
  const { heads, joined } = prepare(file);
  // Node's server has built this object already: it reads `host` and `expect` from every HTTP/1.1
  // request before any handler runs.
  const headers = request.headers;
  const encoding = file.variants ? negotiate(headers["accept-encoding"]) : "identity";
  // RFC 9110 §13.2.2: If-Match first; when it holds, If-None-Match decides.
  const ifMatch = headers["if-match"];
  if (ifMatch !== undefined && !ifMatchHolds(ifMatch, etagFor(file, encoding))) {
    sendError(response, PRECONDITION_FAILED.status, PRECONDITION_FAILED.error);
    return;
  }
  const matched = matchedEncoding(headers["if-none-match"], file, encoding);
  if (matched !== null) {
    const kept = headFor(file, matched, heads[matched], cacheControl, disposition);
    response.writeHead(304, kept.notModified).end();
    return;
  }
  const head = headFor(file, encoding, heads[encoding], cacheControl, disposition);
  const range = headers.range;
  if (range !== undefined && request.method === "GET")
    return sendRange(request, response, file, encoding, head, range);
  response.writeHead(200, head.ok);
  if (request.method === "HEAD") response.end();
  else if (encoding !== "identity")
    return sendWhole(response, (file.variants as Variants)[encoding]);
  else if (joined) return sendWhole(response, joined);
  else return sendChunks(response, file.body);
}

/** The bytes a Range asks for (206), none past the end (416), or the whole answer (200). */
function sendRange(
  request: IncomingMessage,
  response: ServerResponse,
  file: ReleaseFile,
  encoding: Encoding,
  head: Head,
  range: string,
): Promise<void> | undefined {
  const body = encoding === "identity" ? file.body : [(file.variants as Variants)[encoding]];
  const size = encoding === "identity" ? file.size : (body[0] as Uint8Array).byteLength;
  const asked = rangeAsked(range, request.headers["if-range"], etagFor(file, encoding), size);
  if (asked.kind === "unsatisfiable") {
    sendError(response, RANGE_NOT_SATISFIABLE.status, RANGE_NOT_SATISFIABLE.error, {
      "Content-Range": `bytes */${size}`,
    });
    return;
  }
  if (asked.kind === "whole") {
    response.writeHead(200, head.ok);
    return sendChunks(response, body);
  }
  const { start, end } = asked;
  const partial = [...head.ok, "Content-Range", `bytes ${start}-${end}/${size}`];
  partial[partial.indexOf("Content-Length") + 1] = String(end - start + 1);
  response.writeHead(206, partial);
  return sendChunks(response, bytesBetween(body, start, end));
}

// Node counts an answer ended in one call as finished, and its server.close() cuts such a
// connection at once, before the socket has taken the bytes: a body bigger than the socket takes
// at once is written, and ended only when the socket has drained.
const END_AT_ONCE = 64 * 1024;

function sendWhole(response: ServerResponse, body: Uint8Array): Promise<void> | undefined {
  if (body.byteLength <= END_AT_ONCE) {
    response.end(body);
    return;
  }
  if (response.write(body)) {
    response.end();
    return;
  }
  return drained(response).then(() => endUnlessGone(response));
}

function endUnlessGone(response: ServerResponse): void {
  if (!response.destroyed) response.end();
}

/**
 * A big body in batches of copies, waiting for the socket to drain: a million stations are never
 * copied whole, and a batch the socket has flushed is filled again rather than allocated anew.
 */
export async function sendChunks(
  response: ServerResponse,
  chunks: readonly Uint8Array[],
): Promise<void> {
  let batch = Buffer.allocUnsafe(BATCH);
  let filled = 0;
  for (const chunk of chunks) {
    if (filled > 0 && filled + chunk.byteLength > BATCH) {
      const flushed = await writeOut(response, batch.subarray(0, filled));
      if (response.destroyed) return; // the client left
      if (!flushed) batch = Buffer.allocUnsafe(BATCH); // still queued: not ours to fill again
      filled = 0;
    }
    if (chunk.byteLength >= BATCH) {
      await writeOut(response, chunk); // as it is: copying would only cost
      if (response.destroyed) return;
      continue;
    }
    batch.set(chunk, filled);
    filled += chunk.byteLength;
  }
  if (filled > 0) await writeOut(response, batch.subarray(0, filled));
  endUnlessGone(response);
}

/** True once the socket has flushed the bytes (it asked to wait); false when they may still be queued. */
async function writeOut(response: ServerResponse, bytes: Uint8Array): Promise<boolean> {
  if (response.write(bytes)) return false;
  await drained(response);
  return true;
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
