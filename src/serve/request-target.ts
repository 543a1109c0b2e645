// The request target as the handler reads it: origin-form (`/path?query`) or absolute-form
// (`http://host/path?query`, RFC 9112 §3.2.2, sent by proxies), split into path and parsed query.

export interface RequestTarget {
  /** Still percent-encoded: safePath checks it before any decoding. */
  path: string;
  /** The one parsing of the query: the key is read from it and the log line is made from it. */
  query: URLSearchParams;
}

const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i;

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
