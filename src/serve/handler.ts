// The request handler: method, path safety, route, key, contract, then the answer from the current Release.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Release } from "../publish/release.js";
import { matchRoute } from "../routes/match-route.js";
import { accessOf, type Endpoint, pathOf } from "../routes/routes.js";
import type { FailedKeyLimit } from "./failed-key-limit.js";
import type { KeyRing } from "./keys/key-ring.js";
import { type Live, statusOf } from "./live.js";
import { redactTarget, redactText } from "./redact.js";
import { parseTarget, type RequestTarget } from "./request-target.js";
import { ALLOW, sendError, sendFile, sendJson, sendOptions } from "./respond.js";
import { safePath } from "./safe-path.js";

// The wording real clients of the original service know.
const UNAUTHORIZED = "Unauthorized";
const NO_CONTRACT = "Specified contract does not exist";
const NO_PARKING_API = "Specified contract does not offer the parking API";
const NOT_FOUND = "Resource Not Found";

const STATIC_MAX_AGE = 3600;

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

    const match = matchRoute(path.segments, query);
    if (match.kind === "none") return sendError(response, 404, NOT_FOUND);
    if (match.kind === "invalid") return sendError(response, 400, match.message);
    const { endpoint } = match;

    if (accessOf(endpoint) === "key") {
      const key = query.get("apiKey");
      if (!key || !options.keys.accepts(key)) return refuseKey(request, response);
    }
    if (endpoint.name === "status") return sendJson(response, statusOf(options.live, now()));

    const release = options.live.release; // read once: this request is answered from this release only
    const resolved = resolveContract(release, endpoint);
    if ("status" in resolved) return sendError(response, resolved.status, resolved.message);
    const file = release.files.get(pathOf(resolved.endpoint));
    if (!file) return sendError(response, 404, endpoint.name === "station" ? null : NOT_FOUND);
    await sendFile(request, response, file, cacheControl(file.freshness === "dynamic"));
  };

  /** 403, or 429 once this address has tried too many wrong keys (checked only after a wrong key). */
  function refuseKey(request: IncomingMessage, response: ServerResponse): void {
    const retryAfter = options.failedKeys?.failed(request.socket.remoteAddress ?? "", now());
    if (retryAfter)
      sendError(response, 429, "Too Many Requests", { "Retry-After": String(retryAfter) });
    else sendError(response, 403, UNAUTHORIZED);
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
      if (!response.headersSent) sendError(response, 500, "Internal Server Error");
      else response.destroy();
    }
  };
}

type Resolved = { endpoint: Endpoint } | { status: number; message: string | null };

/** Finds the contract as it is spelled in the release, and applies the specification's status rules. */
function resolveContract(release: Release, endpoint: Endpoint): Resolved {
  if (!("contract" in endpoint)) return { endpoint };
  const contract = release.contracts.get(endpoint.contract.toLowerCase());
  switch (endpoint.name) {
    case "contractStations":
      if (!contract) return { status: 400, message: NO_CONTRACT };
      break;
    case "station":
      // A station of a contract that does not exist does not exist: 404 with no body.
      if (!contract) return { status: 404, message: null };
      break;
    case "parks":
      if (!contract) return { status: 400, message: NO_CONTRACT };
      if (!contract.parkingApi) return { status: 400, message: NO_PARKING_API };
      break;
    default:
      if (!contract) return { status: 404, message: NOT_FOUND };
  }
  return { endpoint: { ...endpoint, contract: (contract as { name: string }).name } };
}
