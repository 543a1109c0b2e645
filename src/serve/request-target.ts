// The request target as the handler reads it: origin-form (`/path?query`) or absolute-form
// (`http://host/path?query`, RFC 9112 §3.2.2, sent by proxies), split into path and parsed query.

export interface RequestTarget {
  /** Still percent-encoded: safePath checks it before any decoding. */
  path: string;
  /** The one parsing of the query: the key is read from it and the log line is made from it. */
  query: URLSearchParams;
}

const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i;

/**
 * A query with more parameters is refused unread. Clients send two or three (`contract`, `apiKey`);
 * parsing and redacting 3,500 (`%ff&%ff&…`, 14 KB) took ~50-100 ms of the one serving thread, so
 * ten such requests a second, keyless, held every other client's answers for seconds.
 */
export const MAX_QUERY_PARAMETERS = 64;

/** Whether `raw`'s query holds more than MAX_QUERY_PARAMETERS parameters, counted by its `&`, unparsed. */
export function crowdedQuery(raw: string): boolean {
  let at = raw.indexOf("?");
  if (at < 0) return false;
  for (let separators = 0; separators < MAX_QUERY_PARAMETERS; separators++) {
    at = raw.indexOf("&", at + 1);
    if (at < 0) return false;
  }
  return true;
}

export function parseTarget(raw: string): RequestTarget {
  let target = raw;
  const authority = ABSOLUTE_FORM.exec(target);
  if (authority) target = target.slice(authority[0].length) || "/";
  const queryAt = target.indexOf("?");
  return {
    path: queryAt < 0 ? target : target.slice(0, queryAt),
    query: new URLSearchParams(queryAt < 0 ? "" : target.slice(queryAt + 1)),
  };
}
