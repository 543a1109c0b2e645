// What a request target asks for, apart from any release: the path checked, the route matched, the
// key read and the log's redacted form, worked out once per distinct target (clients repeat theirs).
import { KEY_CHECK_PATH } from "../routes/key-check.js";
import { isFolderWithoutSlash, matchRoute } from "../routes/match-route.js";
import type { Endpoint } from "../routes/routes.js";
import { routeOf } from "../routes/routes.js";
import { folderLocation } from "./folder-location.js";
import { redactTarget } from "./redact.js";
import { crowdedQuery, MAX_QUERY_PARAMETERS, parseTarget } from "./request-target.js";
import { badPathMessage, safePath } from "./safe-path.js";

export type Asked = {
  /** The target as the log shows it: path escaped and scrubbed, query redacted as parsed. */
  readonly logged: string;
  /** `logged` as bytes, for the log's buffer. */
  readonly loggedBytes: Uint8Array;
  /** `apiKey` from the one parsing of the query. */
  readonly key: string | null;
} & (
  | { readonly kind: "bad request"; readonly message: string; readonly keyed: boolean }
  | { readonly kind: "not found" }
  /** A folder's page asked without its slash (`/docs`): sent to `location` (`/docs/`). */
  | { readonly kind: "folder"; readonly location: string }
  | { readonly kind: "key check" }
  | {
      readonly kind: "endpoint";
      readonly endpoint: Endpoint;
      readonly keyed: boolean;
      /** A number spelled otherwise than the tree's URL (`042`): answered as no such record. */
      readonly absent: boolean;
    }
);

// A server has a few thousand hot targets; past this many the memory is given back and refilled.
const KEPT = 10_000;
// Clients' targets are short; a longer one (up to the 16 KB the server reads, ~48 KB once escaped
// for the log) is worked out each time it comes, never kept: 10,000 of them held 1.2 GB.
const KEPT_LENGTH = 1024;
// What the log shows of a longer target, then its length: a flood of them must not crowd other
// clients' lines out of the log's buffer (which drops lines past 16 MB waiting).
const LOGGED_LENGTH = 2048;

/** `askedOf(raw)`: the same answer as working it out again, from a bounded memory of recent targets. */
export function askedTargets(): (raw: string) => Asked {
  const known = new Map<string, Asked>();
  return (raw) => {
    let asked = known.get(raw);
    if (asked) return asked;
    asked = workOut(raw);
    if (raw.length > KEPT_LENGTH) return asked;
    if (known.size >= KEPT) known.clear();
    known.set(raw, asked);
    return asked;
  };
}

function workOut(raw: string): Asked {
  if (crowdedQuery(raw)) return crowded(raw);
  const target = parseTarget(raw);
  const { query } = target;
  const logged = shortened(redactTarget(target.path, query), raw.length);
  const loggedBytes = Buffer.from(logged);
  const key = query.get("apiKey");
  const path = safePath(target.path);
  // Literals, not `{ ...facts, kind }`: one hidden class per kind, not one per target (see
  // with-fields.ts), so that the handler's reads of them stay fast.
  if (!path.ok)
    return {
      logged,
      loggedBytes,
      key,
      kind: "bad request",
      message: badPathMessage(path.reason),
      keyed: false,
    };
  if (target.path === KEY_CHECK_PATH) return { logged, loggedBytes, key, kind: "key check" };
  const match = matchRoute(path.segments, query, path.folder);
  if (match.kind === "none" && !path.folder && isFolderWithoutSlash(path.segments, query)) {
    const location = folderLocation(
      path.segments,
      raw.includes("?") ? raw.slice(raw.indexOf("?")) : "",
    );
    return { logged, loggedBytes, key, kind: "folder", location };
  }
  if (match.kind === "none") return { logged, loggedBytes, key, kind: "not found" };
  if (match.kind === "invalid")
    return {
      logged,
      loggedBytes,
      key,
      kind: "bad request",
      message: match.message,
      keyed: match.keyed,
    };
  const { endpoint } = match;
  const keyed = routeOf(endpoint).access === "key";
  const absent = match.kind === "absent";
  return { logged, loggedBytes, key, kind: "endpoint", endpoint, keyed, absent };
}

/** A target whose query is refused unread: its path logged, no key read. */
function crowded(raw: string): Asked {
  const { path } = parseTarget(raw.slice(0, raw.indexOf("?")));
  const logged = shortened(
    `${redactTarget(path, new URLSearchParams())}?(more than ${MAX_QUERY_PARAMETERS} parameters, not read)`,
    raw.length,
  );
  const loggedBytes = Buffer.from(logged);
  const message = `Bad request query: more than ${MAX_QUERY_PARAMETERS} parameters are not allowed`;
  return { logged, loggedBytes, key: null, kind: "bad request", message, keyed: false };
}

/** The redacted target cut to LOGGED_LENGTH, saying the length of the target asked. */
function shortened(logged: string, asked: number): string {
  return logged.length <= LOGGED_LENGTH
    ? logged
    : `${logged.slice(0, LOGGED_LENGTH)}…(a target of ${asked} characters)`;
}
