// The answers other than success, in the wording real clients of the original service know.
import type { Outcome } from "./route.js";

export const KEY_REFUSED: Outcome = {
  status: 403,
  error: "Unauthorized",
  meaning: "no apiKey, or an unknown or revoked key",
};
/** Only with `serve --max-key-failures`: an address that tried too many wrong keys waits (Retry-After). */
export const TOO_MANY_KEY_FAILURES: Outcome = {
  status: 429,
  error: "Too Many Requests",
  meaning: "too many wrong keys from this address lately: retry after the Retry-After seconds",
};
/** Only for a key with a limit (`keys add --per-minute`, `keys limit`): its minute's requests are used up. */
export const KEY_RATE_LIMITED: Outcome = {
  status: 429,
  error: "Too Many Requests",
  meaning: "this key's requests of the minute are used up: retry after the Retry-After seconds",
};
export const NO_CONTRACT: Outcome = {
  status: 400,
  error: "Specified contract does not exist",
  meaning: "unknown contract",
};
export const NO_PARKING_API: Outcome = {
  status: 400,
  error: "Specified contract does not offer the parking API",
  meaning: "the contract does not offer the parking API",
};
/**
 * A request line, or headers, past what a server takes before it reads the request: Node's default
 * (`--max-http-header-size`) and the nginx deployment's buffers, 16 KB; serve says what its Node takes.
 */
export const uriTooLong = (kb = 16): Outcome => ({
  status: 414,
  error: `the request line is longer than the ${kb} KB a server takes`,
  meaning: `a request line (path and query) over ${kb} KB`,
});
export const headersTooLarge = (kb = 16): Outcome => ({
  status: 431,
  error: `the request's headers are larger than the ${kb} KB a server takes`,
  meaning: `request headers over ${kb} KB`,
});
export const URI_TOO_LONG = uriTooLong();
export const HEADERS_TOO_LARGE = headersTooLarge();
/** Any method but GET, HEAD and OPTIONS (sent with `Allow`). */
export const METHOD_NOT_ALLOWED: Outcome = {
  status: 405,
  error: "Method Not Allowed",
  meaning: "a method other than GET, HEAD or OPTIONS",
};
/** What no HTTP parser can read (a method in lower case, a broken request line). */
export const MALFORMED_REQUEST: Outcome = {
  status: 400,
  error: "malformed HTTP request",
  meaning: "not an HTTP request a server can read",
};
export const NOT_FOUND: Outcome = {
  status: 404,
  error: "Resource Not Found",
  meaning: "no such resource",
};
/**
 * The specification: a station that does not exist (or whose contract does not) is a 404 with no
 * body; so is a number spelled otherwise than the tree's URLs spell it, which no host has a file for.
 */
export const NO_STATION: Outcome = {
  status: 404,
  error: null,
  meaning:
    "no such station in that contract, or its number not spelled plainly (042, +42) (no body)",
};
/** A known route asked for wrongly (malformed number, empty or missing parameter); the error says what. */
export const BAD_REQUEST: Outcome = {
  status: 400,
  error: "…what is wrong…",
  meaning: "malformed request: the error says what is wrong",
};
export const INTERNAL_ERROR: Outcome = {
  status: 500,
  error: "Internal Server Error",
  meaning: "a failure of the server (logged)",
};
/**
 * A conditional request whose If-Match names no tag of the answer (RFC 9110 §13.1.1): the client's
 * copy is not the current one. nginx answers the same, and If-Unmodified-Since too from a file's
 * time; serve has no Last-Modified, so the RFC has it ignore that one.
 */
export const PRECONDITION_FAILED: Outcome = {
  status: 412,
  error: "Precondition Failed",
  meaning: "If-Match names no current ETag of the answer",
};
/**
 * A Range of bytes that all lie past the end of the answer (RFC 9110 §15.5.17); Content-Range
 * gives its size (an asterisk where a range would be, then the size).
 */
export const RANGE_NOT_SATISFIABLE: Outcome = {
  status: 416,
  error: "Range Not Satisfiable",
  meaning: "Range asks only for bytes past the end of the answer, whose size Content-Range gives",
};
/**
 * nginx in front of the tree (`velodata nginx`) while velodata serve is down or stuck (a restart, an
 * upgrade): whatever needs serve, a key check or a request no file answers, which any path may be
 * (a contract in another case, a query the files do not take).
 */
export const SERVE_UNAVAILABLE: Outcome = {
  status: 503,
  error: "Service Unavailable",
  meaning:
    "through nginx in front of the tree: velodata serve, which checks the keys and answers what no file can, is restarting or down; retry after the Retry-After seconds",
};
/** The seconds nginx's 503 asks a client to wait: serve restarts within seconds. */
export const SERVE_UNAVAILABLE_RETRY_SECONDS = 5;
/**
 * nginx in front of the tree (`velodata nginx`): more requests in progress from one client address
 * than its limit per address (`--max-concurrent-per-address`), on any path.
 */
export const TOO_MANY_AT_ONCE: Outcome = {
  status: 429,
  error: "Too Many Requests",
  meaning:
    "through nginx in front of the tree: more requests in progress from this address at once than it allows; retry after the Retry-After seconds",
};
/** The seconds nginx's 429 for too many requests at once asks a client to wait. */
export const TOO_MANY_AT_ONCE_RETRY_SECONDS = 1;
/** Conditional GET: the client's copy (If-None-Match) is current. */
export const NOT_MODIFIED: Outcome = {
  status: 304,
  error: null,
  meaning: "not modified: If-None-Match holds the current ETag (no body)",
};
