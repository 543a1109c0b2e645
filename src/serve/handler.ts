// The request handler: method, path safety, route, key, contract, then the answer from the current Release.
import type { IncomingMessage, ServerResponse } from "node:http";
import { matchRoute } from "../routes/match-route.js";
import { INTERNAL_ERROR, KEY_REFUSED, NOT_FOUND } from "../routes/outcomes.js";
import { notFoundOf, resolveContract } from "../routes/resolve-contract.js";
import type { Outcome } from "../routes/route.js";
import { pathOf, routeOf } from "../routes/routes.js";
import type { KeyRing } from "./keys/key-ring.js";
import { type Live, statusOf } from "./live.js";
import { redact } from "./redact.js";
import { ALLOW, sendError, sendFile, sendJson, sendOptions } from "./respond.js";
import { safePath } from "./safe-path.js";

const STATIC_MAX_AGE = 3600;

export interface HandlerOptions {
  live: Live;
  keys: KeyRing;
  log: (line: string) => void;
  now?: () => Date;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

export function createHandler(options: HandlerOptions): Handler {
  const now = options.now ?? (() => new Date());

  const answer: Handler = async (request, response) => {
    if (request.method === "OPTIONS") return sendOptions(response);
    if (request.method !== "GET" && request.method !== "HEAD") {
      return sendError(response, 405, "Method Not Allowed", { Allow: ALLOW });
    }
    const url = request.url ?? "/";
    const queryAt = url.indexOf("?");
    const path = safePath(queryAt < 0 ? url : url.slice(0, queryAt));
    if (!path.ok) return sendError(response, 400, `Bad request path: ${path.reason}`);
    const query = new URLSearchParams(queryAt < 0 ? "" : url.slice(queryAt + 1));

    const match = matchRoute(path.segments, query);
    if (match.kind === "none") return sendOutcome(response, NOT_FOUND);
    if (match.kind === "invalid") return sendError(response, 400, match.message);
    const { endpoint } = match;

    if (routeOf(endpoint).access === "key") {
      const key = query.get("apiKey");
      if (!key || !options.keys.accepts(key)) return sendOutcome(response, KEY_REFUSED);
    }
    if (endpoint.name === "status") return sendJson(response, statusOf(options.live, now()));

    const release = options.live.release; // read once: this request is answered from this release only
    const resolved = resolveContract(release.contracts, endpoint);
    if ("outcome" in resolved) return sendOutcome(response, resolved.outcome);
    const file = release.files.get(pathOf(resolved.endpoint));
    if (!file) return sendOutcome(response, notFoundOf(endpoint));
    await sendFile(request, response, file, cacheControl(file.freshness === "dynamic"));
  };

  function cacheControl(dynamic: boolean): string {
    if (!dynamic) return `public, max-age=${STATIC_MAX_AGE}`;
    const next = options.live.nextRefreshAt;
    const seconds = next ? Math.max(0, Math.floor((next.getTime() - now().getTime()) / 1000)) : 0;
    return `public, max-age=${seconds}`;
  }

  return async (request, response) => {
    const started = performance.now();
    try {
      await answer(request, response);
    } catch (cause) {
      options.log(
        `error: ${request.method} ${redact(request.url ?? "")}: ${redact((cause as Error)?.message ?? String(cause))}`,
      );
      if (!response.headersSent) sendOutcome(response, INTERNAL_ERROR);
      else response.destroy();
    }
    const ms = (performance.now() - started).toFixed(1);
    options.log(`${request.method} ${redact(request.url ?? "")} ${response.statusCode} ${ms}ms`);
  };
}

const sendOutcome = (response: ServerResponse, outcome: Outcome): void =>
  sendError(response, outcome.status, outcome.error);
