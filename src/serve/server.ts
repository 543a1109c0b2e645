// The HTTP server around the handler: listening, bounded connections, and stopping gracefully
// (no new connection from the first moment, requests in flight finish).
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Log } from "../log.js";
import { answerClientError, answerConnect } from "./client-error.js";
import { createHandler, type HandlerOptions } from "./handler.js";

export interface RunningServer {
  server: Server;
  url: string;
  /** Stops accepting connections at once and resolves when the requests in flight have been answered. */
  close(): Promise<void>;
}

export interface ConnectionLimits {
  /**
   * Open connections at most; past it an idle one is closed to make room, else one whose request
   * head has been coming for SLOW_HEAD_MS, else the newcomer.
   */
  maxConnections?: number;
  /** Seconds a connection may stay without a request in progress (keep-alive or never used). */
  idleSeconds?: number;
  /** Milliseconds from some start: performance.now, or a test's clock. */
  clock?: () => number;
}

export const DEFAULT_MAX_CONNECTIONS = 1000;
export const DEFAULT_IDLE_SECONDS = 10;
// Past this, connections still open after a stop are cut.
const CLOSE_GRACE_MS = 10_000;
const REFUSALS_SAID_EVERY_MS = 60_000;
/**
 * A request head still coming this long after the server first saw it begun, when every place is
 * taken: a client's head comes in one packet, a slow-headers attack (slowloris) holds hundreds of
 * connections this way to lock everyone out. Such a connection may be closed for a newcomer.
 */
export const SLOW_HEAD_MS = 1000;

export async function startServer(
  options: HandlerOptions & ConnectionLimits & { port: number; host: string },
): Promise<RunningServer> {
  const idleMs = (options.idleSeconds ?? DEFAULT_IDLE_SECONDS) * 1000;
  const server = createServer({
    keepAliveTimeout: idleMs,
    headersTimeout: idleMs,
    requestTimeout: Math.max(idleMs, 30_000),
    connectionsCheckingInterval: Math.min(idleMs, 30_000),
    // Node's own 400 for an HTTP/1.1 request without Host has no body: the handler answers it.
    requireHostHeader: false,
  });
  // No `server.timeout`: Node would re-arm a socket timer at each request and refresh it at each
  // read and write (~2 µs of every small answer). A connection is still closed after `idleMs`
  // without a byte either way: never used (below, from its opening), kept alive (Node's
  // keep-alive timer, refreshed by any byte of a next request), or stuck on a big body the client
  // does not read (while the handler is writing it).
  const connections = boundConnections(
    server,
    options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
    idleMs,
    options.log,
    options.clock ?? (() => performance.now()),
  );
  const handler = createHandler({
    ...options,
    closed: (request) => connections.answered(request.socket),
  });
  server.on("clientError", answerClientError);
  server.on("connect", answerConnect);
  // One request listener, and one close listener per response (the handler's): see HandlerOptions.closed.
  server.on("request", (request, response) => {
    connections.asked(request.socket, response);
    // A body still being written: Node's default is to destroy a socket that times out.
    if (handler(request, response)) request.socket.setTimeout(idleMs);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    server,
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        force.unref();
        // The listener's close callback can come before the last connection is done: wait for both.
        const listening = new Promise<void>((done) => server.close(() => done()));
        void Promise.all([listening, connections.stopping()]).then(() => {
          clearTimeout(force);
          resolve();
        });
      }),
  };
}

interface Connections {
  /** A request arrived on this socket (before it is handled). */
  asked(socket: Socket, response: ServerResponse): void;
  /** A response on this socket was closed. */
  answered(socket: Socket): void;
  stopping(): Promise<void>;
}

interface Entry {
  busy: number;
  idleSince: number;
  readAt: number;
  /** When a request head was first seen begun on it, not yet whole (0: not seen so). */
  headSeenAt: number;
}

/**
 * No request in progress, and none begun: Node counts a request only once its head is whole, so a
 * client that has sent part of one (a slow link, a burst of clients polling at once) would
 * otherwise be dropped for a newcomer, unanswered.
 */
const isIdle = (socket: Socket, entry: Entry): boolean =>
  entry.busy === 0 && socket.bytesRead === entry.readAt;

/** A request begun, its head not yet whole: Node has not handed it over. */
const isComing = (socket: Socket, entry: Entry): boolean =>
  entry.busy === 0 && socket.bytesRead > entry.readAt;

/**
 * Idle connections cannot lock clients out: each is closed after `idleMs` without a request,
 * and when `max` are open a newcomer takes the place of the longest idle one; nor can slow
 * request heads: with none idle, it takes the place of the one whose head has been coming longest,
 * past SLOW_HEAD_MS.
 */
function boundConnections(
  server: Server,
  max: number,
  idleMs: number,
  log: Log,
  clock: () => number,
): Connections {
  // Each open socket's requests in progress, when it last became idle (a counter: the longest
  // idle has the smallest) and the bytes it had read then. Changed in place per request: no Map
  // entry is moved.
  const open = new Map<Socket, Entry>();
  let idleCount = 0;
  let stopping = false;
  // Clients turned away are said at once, then at most once a minute with how many since: a
  // server at its limit under load would otherwise write a line per refused connection. And the
  // slow heads closed for newcomers, the same way.
  const refused = countedOncePerMinute(clock, (count, since) =>
    log(
      `connections: ${count} new connection${count === 1 ? "" : "s"} refused${since}: all ${max} open ones were busy (--max-connections)`,
      "warning",
    ),
  );
  const closedSlow = countedOncePerMinute(clock, (count, since) =>
    log(
      `connections: ${count} connection${count === 1 ? "" : "s"} closed for newcomers${since}: all ${max} open ones were busy, these with a request head still coming after ${SLOW_HEAD_MS / 1000} s (slow clients, or slow headers sent on purpose)`,
      "warning",
    ),
  );
  let drained: () => void = () => {};
  const idle = (socket: Socket, entry: Entry) => {
    // Once stopping, a connection whose last answer went out is done: it must not hold the exit.
    if (stopping) {
      socket.destroy();
      return;
    }
    entry.busy = 0;
    entry.idleSince = ++idleCount;
    entry.readAt = socket.bytesRead;
    entry.headSeenAt = 0;
  };
  /** The connection idle the longest, if any is idle (scanned only when the limit is reached). */
  const longestIdle = (): Socket | undefined => {
    let found: Socket | undefined;
    let since = Number.POSITIVE_INFINITY;
    for (const [socket, entry] of open)
      if (isIdle(socket, entry) && entry.idleSince < since) {
        found = socket;
        since = entry.idleSince;
      }
    return found;
  };
  /**
   * The connection whose request head has been coming the longest, past SLOW_HEAD_MS, if any; the
   * heads begun since the last scan are noted as seen now (scanned only when none is idle).
   */
  const slowestHead = (): Socket | undefined => {
    const now = clock();
    let found: Socket | undefined;
    let since = now - SLOW_HEAD_MS;
    for (const [socket, entry] of open) {
      if (!isComing(socket, entry)) continue;
      if (entry.headSeenAt === 0) entry.headSeenAt = now;
      // Of heads seen at once, the first connection's (the map keeps their order).
      else if (entry.headSeenAt < since || (found === undefined && entry.headSeenAt === since)) {
        found = socket;
        since = entry.headSeenAt;
      }
    }
    return found;
  };
  server.on("connection", (socket: Socket) => {
    if (open.size >= max) {
      const longest = longestIdle();
      const victim = longest ?? slowestHead();
      if (!victim) {
        socket.destroy();
        refused();
        return;
      }
      if (!longest) closedSlow();
      victim.destroy();
      open.delete(victim);
    }
    // Until its first answer (then Node's keep-alive timer takes over), and during that request.
    socket.setTimeout(idleMs);
    const entry = { busy: 0, idleSince: 0, readAt: 0, headSeenAt: 0 };
    open.set(socket, entry);
    idle(socket, entry);
    socket.once("close", () => {
      open.delete(socket);
      if (stopping && open.size === 0) drained();
    });
  });
  return {
    // Before the handler: a request arriving while stopping is told the connection closes after it.
    asked(socket, response) {
      const entry = open.get(socket);
      if (entry === undefined) return;
      entry.busy++;
      entry.headSeenAt = 0;
      if (stopping && !response.headersSent) response.setHeader("Connection", "close");
    },
    answered(socket) {
      const entry = open.get(socket);
      if (entry === undefined) return;
      if (entry.busy <= 1 && !socket.destroyed) idle(socket, entry);
      else entry.busy--;
    },
    stopping() {
      stopping = true;
      const done = new Promise<void>((resolve) => (drained = resolve));
      // Node's own idea of idle: a connection with half a request is in flight, not idle.
      server.closeIdleConnections();
      if (open.size === 0) drained();
      return done;
    },
  };
}

/**
 * A count of events said at the first, then at most once a minute with how many since:
 * `say(count, since)`, `since` the words that say the count is since the last line.
 */
function countedOncePerMinute(
  clock: () => number,
  say: (count: number, since: string) => void,
): () => void {
  let count = 0;
  let saidAt = Number.NEGATIVE_INFINITY;
  return () => {
    count++;
    const now = clock();
    if (now - saidAt < REFUSALS_SAID_EVERY_MS) return;
    say(count, Number.isFinite(saidAt) ? " since the last such line" : "");
    saidAt = now;
    count = 0;
  };
}
