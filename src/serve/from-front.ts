// What serve may take from a front server on this machine: the client a request comes from, for the
// wrong-key brake (--max-key-failures), and whether it counted the key. The client is the connection's
// peer, or, when that peer is a front server on this machine (nginx, which appends the address of
// its own peer to X-Forwarded-For), the last address the front names. A peer elsewhere is never
// taken at its word: anyone can send the header.
import type { IncomingMessage } from "node:http";
import { KEY_CHECKED_HEADER } from "../routes/key-check.js";

const LOOPBACK = /^(?:127\.|::1$|::ffff:127\.)/;
const fromThisMachine = (request: IncomingMessage): boolean =>
  LOOPBACK.test(request.socket.remoteAddress ?? "");

export function clientAddress(request: IncomingMessage): string {
  const peer = request.socket.remoteAddress ?? "";
  const forwarded = request.headers["x-forwarded-for"];
  if (typeof forwarded !== "string" || !fromThisMachine(request)) return peer;
  return forwarded.slice(forwarded.lastIndexOf(",") + 1).trim() || peer;
}

// Node's header names are lower case.
const CHECKED = KEY_CHECKED_HEADER.toLowerCase();

/**
 * Whether a front server on this machine says it checked, and counted, the request's key (see
 * KEY_CHECKED_HEADER): its key's limit is not counted again.
 */
export const checkedByFront = (request: IncomingMessage): boolean =>
  request.headers[CHECKED] === "1" && fromThisMachine(request);
