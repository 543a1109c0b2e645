// Writing responses: the headers every answer carries, JSON errors, and release files in any encoding.
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { JSON_TYPE, type ReleaseFile } from "../publish/release.js";
import { type Encoding, encodedBody, etagFor, negotiate, notModified } from "./encoding.js";

export const ALLOW = "GET, HEAD, OPTIONS";

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
      "Access-Control-Max-Age": "86400",
    })
    .end();
}

export async function sendFile(
  request: IncomingMessage,
  response: ServerResponse,
  file: ReleaseFile,
  cacheControl: string,
): Promise<void> {
  const encoding: Encoding = negotiate(header(request, "accept-encoding"), file.size);
  const headers: Record<string, string> = {
    ...COMMON,
    "Content-Type": file.contentType,
    "Cache-Control": cacheControl,
    Vary: "Accept-Encoding",
    ETag: etagFor(file, encoding),
  };
  if (notModified(header(request, "if-none-match"), file)) {
    response.writeHead(304, headers).end();
    return;
  }
  if (encoding !== "identity") {
    const body = await encodedBody(file, encoding);
    response.writeHead(200, {
      ...headers,
      "Content-Encoding": encoding,
      "Content-Length": String(body.length),
    });
    response.end(request.method === "HEAD" ? undefined : body);
    return;
  }
  response.writeHead(200, { ...headers, "Content-Length": String(file.size) });
  if (request.method === "HEAD") {
    response.end();
    return;
  }
  // Chunk by chunk, with back-pressure: a list of a million stations is never copied whole.
  await pipeline(Readable.from(file.body, { objectMode: false }), response);
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(",") : value;
}
