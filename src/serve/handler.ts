// The request handler: method, path safety, route, key, contract, then the answer from the current Release.
import type { IncomingMessage, ServerResponse } from "node:http";
import { KEY_CHECK_PATH } from "../routes/key-check.js";
import { matchRoute } from "../routes/match-route.js";
import { STATIC_MAX_AGE } from "../routes/max-age.js";
import {
  INTERNAL_ERROR,
  KEY_REFUSED,
  NOT_FOUND,
  TOO_MANY_KEY_FAILURES,
} from "../routes/outcomes.js";
import { notFoundOf, resolveContract } from "../routes/resolve-contract.js";
import type { Outcome } from "../routes/route.js";
import { pathOf, routeOf } from "../routes/routes.js";
import type { FailedKeyLimit } from "./failed-key-limit.js";
import type { KeyRing } from "./keys/key-ring.js";
import { type Live, statusOf } from "./live.js";
import { redactTarget, redactText } from "./redact.js";
import { parseTarget, type RequestTarget } from "./request-target.js";
import { ALLOW, sendError, sendFile, sendJson, sendOptions } from "./respond.js";
import { safePath } from "./safe-path.js";

export interface HandlerOptions {
  live: Live;
  keys: KeyRing;
  log: (line: string) => void;
  now?: () => Date;
  /** Answers 429 to an address after too many wrong keys; never consulted for a valid key. */
  failedKeys?: FailedKeyLimit;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;
type Answer = (
  request: IncomingMessage,
  response: ServerResponse,
  target: RequestTarget,
) => Promise<void>;

export function createHandler(options: HandlerOptions): Handler {
  const now = options.now ?? (() => new Date());

  const answer: Answer = async (request, response, target) => {
    if (request.method === "OPTIONS") return sendOptions(response);
    if (request.method !== "GET" && request.method !== "HEAD") {
      return sendError(response, 405, "Method Not Allowed", { Allow: ALLOW });
    }
    const path = safePath(target.path);
    if (!path.ok) return sendError(response, 400, `Bad request path: ${path.reason}`);
    const { query } = target;
    if (target.path === KEY_CHECK_PATH) return checkKey(request, response, query.get("apiKey"));

    const match = matchRoute(path.segments, query, path.folder);
    if (match.kind === "none") return sendOutcome(response, NOT_FOUND);
    if (match.kind === "invalid") return sendError(response, 400, match.message);
    const { endpoint } = match;

    if (routeOf(endpoint).access === "key") {
      const key = query.get("apiKey");
      if (!key || !options.keys.accepts(key)) return refuseKey(request, response);
    }
    if (endpoint.name === "status") return sendJson(response, statusOf(options.live, now()));

    const release = options.live.release; // read once: this request is answered from this release only
    const resolved = resolveContract(release.contracts, endpoint);
    if ("outcome" in resolved) return sendOutcome(response, resolved.outcome);
    const file = release.files.get(pathOf(resolved.endpoint));
    if (!file) return sendOutcome(response, notFoundOf(endpoint));
    await sendFile(request, response, file, cacheControl(file.freshness === "dynamic"));
  };

  /** For a front server's auth_request: no body either way, the refusal as the API gives it. */
  function checkKey(request: IncomingMessage, response: ServerResponse, key: string | null): void {
    if (key && options.keys.accepts(key))
      response.writeHead(204, { "Cache-Control": "no-store" }).end();
    else refuseKey(request, response);
  }

  /** 403, or 429 once this address has tried too many wrong keys (checked only after a wrong key). */
  function refuseKey(request: IncomingMessage, response: ServerResponse): void {
    const retryAfter = options.failedKeys?.failed(request.socket.remoteAddress ?? "", now());
    if (retryAfter)
      sendOutcome(response, TOO_MANY_KEY_FAILURES, { "Retry-After": String(retryAfter) });
    else sendOutcome(response, KEY_REFUSED);
  }

  function cacheControl(dynamic: boolean): string {
    if (!dynamic) return `public, max-age=${STATIC_MAX_AGE}`;
    const next = options.live.nextRefreshAt;
    const seconds = next ? Math.max(0, Math.floor((next.getTime() - now().getTime()) / 1000)) : 0;
    return `public, max-age=${seconds}`;
  }

  return async (request, response) => {
    const started = performance.now();
    const target = parseTarget(request.url ?? "/");
    // Only what the handler parsed reaches the log: the method too is a client's raw bytes.
    const line = () =>
      `${redactText(request.method ?? "")} ${redactTarget(target.path, target.query)}`;
    // Logged when the connection is done with this answer, so the line says whether it arrived.
    response.once("close", () => {
      const ms = (performance.now() - started).toFixed(1);
      // A reset connection may still count the bytes as written: its error says they were lost.
      const delivered = response.writableFinished && !request.socket.errored;
      const outcome = delivered ? `${ms}ms` : `not delivered: the connection closed after ${ms}ms`;
      options.log(`${line()} ${response.statusCode} ${outcome}`);
    });
    try {
      await answer(request, response, target);
    } catch (cause) {
      options.log(`error: ${line()}: ${redactText((cause as Error)?.message ?? String(cause))}`);
      if (!response.headersSent) sendOutcome(response, INTERNAL_ERROR);
      else response.destroy();
    }
  };
}

const sendOutcome = (
  response: ServerResponse,
  outcome: Outcome,
  headers: Record<string, string> = {},
): void => sendError(response, outcome.status, outcome.error, headers);
