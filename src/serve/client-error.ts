// What Node's HTTP parser refuses before any handler runs (an overlong request line or headers, a
// malformed request, one too slow to arrive; a CONNECT): the API's JSON error with its CORS header, as every
// other answer, where Node would write a bare status line a browser's script cannot read.
import { type IncomingMessage, maxHeaderSize, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { JSON_TYPE } from "../routes/content-types.js";
import { NOT_STORED_CACHE_CONTROL } from "../routes/max-age.js";
import { ALLOWED_METHODS, EXPOSED_HEADERS, NO_SNIFF } from "../routes/methods.js";
import {
  headersTooLarge,
  MALFORMED_REQUEST,
  METHOD_NOT_ALLOWED,
  uriTooLong,
} from "../routes/outcomes.js";

interface ParserError extends Error {
  code?: string;
  /** The bytes the parser was given when it failed. */
  rawPacket?: Buffer;
}

/** The status and message for a parser's error (nginx says 414 for a request line past its limit). */
export function clientErrorAnswer(error: ParserError): { status: number; message: string } {
  if (error.code === "HPE_HEADER_OVERFLOW") {
    // What this Node takes: 16 KB unless run with another --max-http-header-size.
    const kb = Math.round((maxHeaderSize / 1024) * 10) / 10;
    const { status, error: message } = longRequestLine(error.rawPacket)
      ? uriTooLong(kb)
      : headersTooLarge(kb);
    return { status, message: message as string };
  }
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT")
    return { status: 408, message: STATUS_CODES[408] as string };
  return { status: MALFORMED_REQUEST.status, message: MALFORMED_REQUEST.error as string };
}

/**
 * Whether the bytes the parser failed on start a request whose first line alone is past the limit
 * (a long query string). A request line that came in several reads fails on a later one, which
 * cannot say: 431 then, as for big headers.
 */
function longRequestLine(packet: Buffer | undefined): boolean {
  if (!packet || !/^[A-Z]+ /.test(packet.subarray(0, 16).toString("latin1"))) return false;
  const end = packet.indexOf("\r\n");
  return (end < 0 ? packet.length : end) >= maxHeaderSize;
}

/**
 * Answers on the socket and closes it. A socket already gone (a reset), or one where an answer to
 * an earlier request on the connection has started, is only closed: bytes written now would land
 * inside that answer. (Node's own default decides so, from the same in-flight response.)
 */
export function answerClientError(error: ParserError, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent: boolean } | null })
    ._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const { status, message } = clientErrorAnswer(error);
  endWithError(socket, status, message, "");
}

/**
 * A CONNECT request: Node hands it to no request listener (and, without this one, closes the
 * connection with no answer at all). Refused as any method but GET, HEAD and OPTIONS is.
 */
export function answerConnect(_request: IncomingMessage, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const { status, error } = METHOD_NOT_ALLOWED;
  endWithError(socket, status, error as string, `Allow: ${ALLOWED_METHODS}\r\n`);
}

/** Writes the API's JSON error with its CORS header on the socket, and closes it. */
function endWithError(socket: Duplex, status: number, message: string, headers: string): void {
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      `Content-Type: ${JSON_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `Cache-Control: ${NOT_STORED_CACHE_CONTROL}\r\n` +
      "Access-Control-Allow-Origin: *\r\n" +
      `Access-Control-Expose-Headers: ${EXPOSED_HEADERS}\r\n` +
      `${NO_SNIFF.name}: ${NO_SNIFF.value}\r\n` +
      headers +
      `Connection: close\r\n\r\n${body}`,
  );
}
