// The client a request comes from, for the wrong-key brake (--max-key-failures): the connection's
// peer, or, when that peer is a front server on this machine (nginx, which appends the address of
// its own peer to X-Forwarded-For), the last address the front names. A peer elsewhere is never
// taken at its word: anyone can send the header.
import type { IncomingMessage } from "node:http";

const LOOPBACK = /^(?:127\.|::1$|::ffff:127\.)/;
/** Whether the connection's peer is on this machine: a front server's header is taken only then. */
export const fromThisMachine = (request: IncomingMessage): boolean =>
  LOOPBACK.test(request.socket.remoteAddress ?? "");

export function clientAddress(request: IncomingMessage): string {
  const peer = request.socket.remoteAddress ?? "";
  const forwarded = request.headers["x-forwarded-for"];
  if (typeof forwarded !== "string" || !fromThisMachine(request)) return peer;
  return forwarded.slice(forwarded.lastIndexOf(",") + 1).trim() || peer;
}
