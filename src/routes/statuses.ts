// Every status a route can give, derived from its row: what the OpenAPI document and hosts enumerate.
import {
  BAD_REQUEST,
  HEADERS_TOO_LARGE,
  INTERNAL_ERROR,
  KEY_RATE_LIMITED,
  KEY_REFUSED,
  NOT_FOUND,
  NOT_MODIFIED,
  PRECONDITION_FAILED,
  RANGE_NOT_SATISFIABLE,
  SERVE_UNAVAILABLE,
  TOO_MANY_AT_ONCE,
  TOO_MANY_KEY_FAILURES,
  URI_TOO_LONG,
} from "./outcomes.js";
import type { AnyRoute, Outcome } from "./route.js";

/** The answers other than 200, in the order the handler tries them, one entry per distinct outcome. */
export function outcomesOf(route: AnyRoute): Outcome[] {
  const types = Object.values(route.params);
  const hasContract = types.some((type) => type.kind === "contract");
  const identifiesOne = types.some((type) => type.kind !== "contract");
  const outcomes: (Outcome | undefined)[] = [
    route.served === "release" ? NOT_MODIFIED : undefined,
    // /status has no ETag: an If-Match naming a tag fails there too (RFC 9110 §13.1.1).
    PRECONDITION_FAILED,
    route.served === "release" ? RANGE_NOT_SATISFIABLE : undefined,
    // Any path can be malformed (`//`, `..`, a bad %-escape), and so can a number or a query.
    BAD_REQUEST,
    // Any request can be too long for a server to read (Node's default and nginx's, 16 KB).
    URI_TOO_LONG,
    HEADERS_TOO_LARGE,
    route.access === "key" ? KEY_REFUSED : undefined,
    route.access === "key" ? TOO_MANY_KEY_FAILURES : undefined,
    route.access === "key" ? KEY_RATE_LIMITED : undefined,
    hasContract ? (route.unknownContract ?? route.notFound ?? NOT_FOUND) : undefined,
    route.contractNeeds?.outcome,
    identifiesOne ? (route.notFound ?? NOT_FOUND) : undefined,
    INTERNAL_ERROR,
    // Behind nginx any path may need serve (a key check, a request no file answers), and any
    // client may have too many requests in progress at once.
    SERVE_UNAVAILABLE,
    TOO_MANY_AT_ONCE,
  ];
  return [...new Set(outcomes.filter((outcome) => outcome !== undefined))];
}
