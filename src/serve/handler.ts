// The request handler: method, path safety, route, key, contract, then the answer from the current Release.
import type { IncomingMessage, ServerResponse } from "node:http";
// Imported: the global `performance` is an accessor looked up at every use.
import { performance } from "node:perf_hooks";
import type { Log } from "../log.js";
import { KEY_ID_HEADER, UNCACHED_HEADER } from "../routes/key-check.js";
import {
  cacheControlOf,
  KEYED_STATIC_CACHE_CONTROL,
  keptAs,
  NOT_STORED_CACHE_CONTROL,
  STATIC_CACHE_CONTROL,
} from "../routes/max-age.js";
import {
  INTERNAL_ERROR,
  KEY_RATE_LIMITED,
  KEY_REFUSED,
  MALFORMED_REQUEST,
  METHOD_NOT_ALLOWED,
  NOT_FOUND,
  PRECONDITION_FAILED,
  TOO_MANY_KEY_FAILURES,
} from "../routes/outcomes.js";
import { notFoundOf, resolveContract } from "../routes/resolve-contract.js";
import type { Outcome } from "../routes/route.js";
import { dispositionOf, type Endpoint, pathOf, ROUTES, routeOf } from "../routes/routes.js";
import { type Asked, askedTargets } from "./asked.js";
import { checkTickets } from "./check-tickets.js";
import { clientAddress } from "./client-address.js";
import { ifMatchHolds } from "./encoding.js";
import type { FailedKeyLimit } from "./failed-key-limit.js";
import type { KeyRing } from "./keys/key-ring.js";
import { type Live, statusOf } from "./live.js";
import type { LogSink } from "./log-sink.js";
import { redactText } from "./redact.js";
import { requestLineText, shownRequest } from "./request-line.js";
import { requestWindows } from "./request-windows.js";
import { ALLOW, sendError, sendFile, sendJson, sendOptions, sendRedirect } from "./respond.js";

export interface HandlerOptions {
  live: Live;
  keys: KeyRing;
  log: Log;
  /** Each answered request's line, in parts (a LogSink's `request`); by default as text to `log`. */
  logRequest?: LogSink["request"];
  now?: () => Date;
  /** Answers 429 to an address after too many wrong keys; never consulted for a valid key. */
  failedKeys?: FailedKeyLimit;
  /**
   * Called when a response is closed, from the handler's own `close` listener: the server's
   * connection bookkeeping. With a second listener per response, V8's allocation-site pretenuring
   * kept finished requests in the old generation under load (it grew ~50 MB per 3 s at 20,000
   * stations, scavenges ~10× longer; not with one listener, nor with pretenuring switched off).
   */
  closed?: (request: IncomingMessage) => void;
  /**
   * Whether this request's client sees the whole /status (see status-details.ts); without it,
   * every client does.
   */
  statusDetails?: (request: IncomingMessage) => boolean;
  /** Shown each request first: reads what a front server says of itself (see front-tree.ts). */
  front?: (request: IncomingMessage) => void;
}

/** Returns a promise only while a big body is still being written. */
type Handler = (request: IncomingMessage, response: ServerResponse) => Promise<void> | undefined;

/**
 * Where an endpoint's answer is in the releases sharing one set of contracts: a file's path (and
 * the Content-Disposition of a file to save), or a refusal.
 */
type Located = { path: string; disposition: string | undefined } | { outcome: Outcome };

/** A wrong key a key check counted: its client, the key, and the seconds that client must wait. */
interface CountedFailure {
  address: string;
  key: string;
  wait: number;
}

// The status of the server's status document when `ok` is false (the route table's `alsoAs`).
const UNHEALTHY = ROUTES.status.alsoAs?.status ?? 503;
// What /status is tagged with: nothing, a tag no If-Match but `*` names.
const NO_TAG = "";
// Resolutions remembered at most before they are dropped and worked out again.
const LOCATED_KEPT = 10_000;
// Keys with a limit counted at most: more than a server has.
const LIMITED_KEYS_KEPT = 100_000;

export function createHandler(options: HandlerOptions): Handler {
  const now = options.now ?? (() => new Date());
  const logRequest: LogSink["request"] =
    options.logRequest ??
    ((method, asked, status, ms, delivered, keyId) =>
      options.log(requestLineText(method, asked, status, ms, delivered, keyId)));
  const clock = options.now ? () => now().getTime() : Date.now;
  const askedOf = askedTargets();
  // Where each asked endpoint is, for the contracts of the current release (a new release, a new memory).
  let located = new Map<Asked, Located>();
  let locatedFor: unknown = null;

  /** The id of the key a target presents where a key is asked for; null: none, or refused. */
  const keyIdOf = (asked: Asked): string | null => {
    const key = asked.key;
    if (key === null) return null;
    const asksKey =
      asked.kind === "key check" ||
      ((asked.kind === "endpoint" || asked.kind === "bad request") && asked.keyed);
    return asksKey ? options.keys.idOf(key) : null;
  };

  // Each limited key's requests of its minute; a key without a limit is never counted.
  const perKey = requestWindows(60, LIMITED_KEYS_KEPT);
  // The requests a key check counted against their key's limit and let through, by the key's id:
  // the request handed on afterwards (a file the front did not find) is not counted again.
  const countedKeys = checkTickets<string>();
  // The requests a key check counted as a wrong key: the request handed on afterwards (the front
  // hands every refusal on) is answered as the check found it, not counted again.
  const countedFailures = checkTickets<CountedFailure>();
  /**
   * The seconds the key of `keyId` must wait (Retry-After), once this request is counted against its
   * `most` a minute; else 0 (also for a key without a limit).
   */
  const overLimit = (
    request: IncomingMessage,
    asked: Asked,
    keyId: string | null,
    most: number | undefined,
  ): number => {
    if (most === undefined) return 0;
    const isCheck = asked.kind === "key check";
    if (!isCheck && countedKeys.take(request, (counted) => counted === keyId) !== undefined)
      return 0;
    const wait = perKey.count(keyId as string, most, clock());
    if (isCheck && wait === 0) countedKeys.keep(request, keyId as string);
    return wait;
  };

  /**
   * Counts a wrong key against its client (--max-key-failures): the seconds it must wait, else 0.
   * A request with no key at all, or an empty one (a client's unset variable), guesses none: never
   * counted. Nor is the hand-over of a check that counted the same key from the same client.
   */
  const failedKey = (request: IncomingMessage, asked: Asked): number => {
    const key = asked.key;
    if (!options.failedKeys || key === null || key === "") return 0;
    const address = clientAddress(request);
    const isCheck = asked.kind === "key check";
    if (!isCheck) {
      const same = (counted: CountedFailure) => counted.address === address && counted.key === key;
      const counted = countedFailures.take(request, same);
      if (counted) return counted.wait;
    }
    const wait = options.failedKeys.failed(address, now());
    if (isCheck) countedFailures.keep(request, { address, key, wait });
    return wait;
  };

  const revokedName = (key: string): string | null => {
    const id = options.keys.revokedIdOf(key);
    return id === null ? null : `${id} (revoked)`;
  };

  const answer = (
    request: IncomingMessage,
    response: ServerResponse,
    asked: Asked,
    keyId: string | null,
    limit: number | undefined,
    wait: number,
  ): Promise<void> | void => {
    // RFC 9112 §3.2: an HTTP/1.1 request without Host is a 400, and any request with two Host
    // lines (Node keeps the first without a word), as nginx answers them, with the same JSON.
    const http11 = request.httpVersionMajor === 1 && request.httpVersionMinor === 1;
    if ((http11 && request.headers.host === undefined) || hostGivenTwice(request.rawHeaders)) {
      return sendOutcome(response, MALFORMED_REQUEST, { Connection: "close" });
    }
    const method = request.method;
    if (method === "OPTIONS") return sendOptions(response);
    if (method !== "GET" && method !== "HEAD") {
      return sendOutcome(response, METHOD_NOT_ALLOWED, { Allow: ALLOW });
    }
    if (asked.kind === "key check") return checkKey(request, response, asked, keyId, limit, wait);
    if (asked.kind === "not found") return sendOutcome(response, NOT_FOUND);
    if (asked.kind === "folder") return sendRedirect(response, asked.location);

    // The key first: a bad request is refused as a well-formed one to the same route would be.
    if (asked.keyed && keyId === null) return refuseKey(request, response, asked);
    if (wait) return sendOutcome(response, KEY_RATE_LIMITED, { "Retry-After": String(wait) });
    if (asked.kind === "bad request") return sendError(response, 400, asked.message);
    const { endpoint } = asked;
    if (endpoint.name === "status") {
      const details = options.statusDetails?.(request) ?? true;
      const status = statusOf(options.live, now(), details);
      // A document made anew, with no ETag: an If-Match naming a tag names none of its (RFC 9110
      // §13.1.1), `*` holds; a 503 ignores preconditions (§13.2.1).
      const ifMatch = request.headers["if-match"];
      if (status.ok && ifMatch !== undefined && !ifMatchHolds(ifMatch, NO_TAG))
        return sendOutcome(response, PRECONDITION_FAILED);
      return sendJson(response, status, status.ok ? 200 : UNHEALTHY, !details);
    }

    const release = options.live.release; // read once: this request is answered from this release only
    if (release.contracts !== locatedFor || located.size >= LOCATED_KEPT) {
      located = new Map();
      locatedFor = release.contracts;
    }
    let where = located.get(asked);
    if (!where) {
      where = locate(release.contracts, endpoint, asked.absent);
      located.set(asked, where);
    }
    if ("outcome" in where) return sendOutcome(response, where.outcome);
    const file = release.files.get(where.path);
    if (!file) return sendOutcome(response, notFoundOf(endpoint));
    const { keyed } = asked;
    // As long as the route's answers may be kept (keptAs): a GBFS feed static in the release is
    // kept as its station_status.
    const cache =
      keptAs(routeOf(endpoint)) === "dynamic"
        ? dynamicCacheControl(keyed)
        : keyed
          ? KEYED_STATIC_CACHE_CONTROL
          : STATIC_CACHE_CONTROL;
    return sendFile(request, response, file, cache, where.disposition);
  };

  /**
   * For a front server's auth_request: 204 with the accepted key's id in a header, for the front
   * server's access log; else 403. A wrong key is counted against --max-key-failures as any (the
   * check is a key oracle to whoever calls it); its check is 403 even past the limit: auth_request
   * passes a 403 through to the request the front then hands on, whose answer (403, or 429) its
   * check's count stands for, and would turn a 429 into a failure of its own. A key past its limit
   * is refused so too, and its hand-over answered 429; a key with a limit is checked at every
   * request, never kept by the front (each check counts one).
   */
  function checkKey(
    request: IncomingMessage,
    response: ServerResponse,
    asked: Asked,
    keyId: string | null,
    limit: number | undefined,
    wait: number,
  ): void {
    if (keyId === null) failedKey(request, asked);
    if (keyId === null || wait) {
      sendOutcome(response, KEY_REFUSED);
      return;
    }
    const headers = { "Cache-Control": NOT_STORED_CACHE_CONTROL, [KEY_ID_HEADER]: keyId };
    const limited = limit !== undefined;
    response.writeHead(204, limited ? { ...headers, [UNCACHED_HEADER]: "0" } : headers).end();
  }

  /** 403, or 429 once this address has tried too many wrong keys (checked only after a wrong key). */
  function refuseKey(request: IncomingMessage, response: ServerResponse, asked: Asked): void {
    const retryAfter = failedKey(request, asked);
    if (retryAfter)
      sendOutcome(response, TOO_MANY_KEY_FAILURES, { "Retry-After": String(retryAfter) });
    else sendOutcome(response, KEY_REFUSED);
  }

  // The station answers' max-age counts down to the next refresh: one string per value it takes,
  // private for a keyed answer (no shared cache may answer it to a key revoked since), else public.
  let maxAge = Number.NaN;
  let keyedMaxAgeHeader = "";
  let publicMaxAgeHeader = "";
  function dynamicCacheControl(keyed: boolean): string {
    const next = options.live.nextRefreshAt;
    const seconds = next ? Math.max(0, Math.floor((next.getTime() - clock()) / 1000)) : 0;
    if (seconds !== maxAge) {
      maxAge = seconds;
      keyedMaxAgeHeader = cacheControlOf("key", seconds);
      publicMaxAgeHeader = cacheControlOf("public", seconds);
    }
    return keyed ? keyedMaxAgeHeader : publicMaxAgeHeader;
  }

  const failed = (
    request: IncomingMessage,
    response: ServerResponse,
    asked: Asked | undefined,
    cause: unknown,
  ) => {
    const message = redactText((cause as Error)?.message ?? String(cause));
    options.log(`error: ${shownRequest(request.method, asked)}: ${message}`, "error");
    if (!response.headersSent) sendOutcome(response, INTERNAL_ERROR);
    else response.destroy();
  };

  // One closure per request (the close listener); the error path's are made only when it is taken.
  return (request, response) => {
    const started = performance.now();
    options.front?.(request);
    let asked: Asked | undefined;
    let keyId: string | null = null;
    // Logged when the connection is done with this answer, so the line says whether it arrived.
    response.on("close", () => {
      options.closed?.(request);
      // A reset connection may still count the bytes as written: its error says they were lost.
      const delivered = response.writableFinished && !request.socket.errored;
      const ms = performance.now() - started;
      logRequest(request.method, asked, response.statusCode, ms, delivered, keyId);
    });
    try {
      asked = askedOf(request.url ?? "/");
      // A preflight or a refused method is no client's request: nginx names none either.
      const method = request.method;
      keyId = method === "GET" || method === "HEAD" ? keyIdOf(asked) : null;
      const limit = keyId === null ? undefined : options.keys.limitOf(keyId);
      const wait = overLimit(request, asked, keyId, limit);
      const sending = answer(request, response, asked, keyId, limit, wait);
      // A revoked key is refused as any wrong one, but named in the line: who still uses it (also
      // once --max-key-failures answers it 429).
      const refused = response.statusCode === 403 || response.statusCode === 429;
      if (keyId === null && refused && asked.key !== null) keyId = revokedName(asked.key);
      if (sending) return sending.catch((cause) => failed(request, response, asked, cause));
    } catch (cause) {
      failed(request, response, asked, cause);
    }
    return undefined;
  };
}

/** Whether the raw header list (name, value, name, value…) has more than one Host line. */
function hostGivenTwice(raw: readonly string[]): boolean {
  let seen = false;
  for (let at = 0; at < raw.length; at += 2) {
    const name = raw[at] as string;
    if (name.length !== 4 || name.toLowerCase() !== "host") continue;
    if (seen) return true;
    seen = true;
  }
  return false;
}

/** `absent`: a number no file is named by (`042`), answered as a record that does not exist. */
function locate(
  contracts: Parameters<typeof resolveContract>[0],
  endpoint: Endpoint,
  absent: boolean,
): Located {
  const resolved = resolveContract(contracts, endpoint);
  if ("outcome" in resolved) return resolved;
  if (absent) return { outcome: notFoundOf(endpoint) };
  return {
    path: pathOf(resolved.endpoint),
    disposition: dispositionOf(routeOf(resolved.endpoint)),
  };
}

const sendOutcome = (
  response: ServerResponse,
  outcome: Outcome,
  headers: Record<string, string> = {},
): void => sendError(response, outcome.status, outcome.error, headers);
