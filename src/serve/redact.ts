// Keeps API keys and raw request bytes out of logs. Pure functions, so the logger can call them
// wherever and whenever it writes: the query is redacted as parsed (the key is read from that
// same parsing), never by matching the raw text, which `api%4Bey=` or `apiKey[]=` slip past.

import { escapeControls } from "../errors.js";

export { escapeControls };

const REDACTED = "<redacted>";
// Keys are 40 hex characters; a shorter hex run is a station number or a date, not a secret. A raw
// path may spell each digit as a percent-escape (`%61` for `a`): those count as digits too.
const KEY_LIKE = /(?:[0-9a-f]|%3[0-9]|%4[1-6]|%6[1-6]){16,}/gi;
// `?x=1;apiKey=…` leaves "apiKey=…" inside the value of x. The gaps are bounded: this runs on
// every new request target before any key is checked, and an unbounded one (`key[^=]*=`) made each
// "apikey" of a 16 KB target scan to its end, a cost in the square of its length (76 ms a
// request). A longer name still has its key hidden by KEY_LIKE.
const NESTED_KEY = /(api[^a-z0-9=]{0,8}key[^=;&\s]{0,16}=)[^;&\s]*/gi;

/** A parameter whose name says it holds a key, however it is spelled (`APIKEY`, `api_key`, `apiKey[]`). */
const namesAKey = (name: string): boolean => /api[^a-z0-9]{0,8}key/i.test(name);

/** `name=value&…` for the log: key values redacted, every character outside the URL set escaped. */
export function redactQuery(query: URLSearchParams): string {
  const pairs: string[] = [];
  for (const [name, value] of query) {
    const shown = namesAKey(name) ? REDACTED : hideKeys(value);
    pairs.push(`${shownEncoded(hideKeys(name))}=${shownEncoded(shown)}`);
  }
  return pairs.join("&");
}

/** The request target for a log line: the raw path escaped and scrubbed, the parsed query redacted. */
export function redactTarget(path: string, query: URLSearchParams): string {
  const search = redactQuery(query);
  return `${escapeControls(hideKeys(path))}${search ? `?${search}` : ""}`;
}

/** Free text that may quote a URL or a file (an error message): keys hidden, controls escaped. */
export function redactText(text: string): string {
  return escapeControls(hideKeys(text));
}

function hideKeys(text: string): string {
  return text.replace(NESTED_KEY, `$1${REDACTED}`).replace(KEY_LIKE, REDACTED);
}

/** `<redacted>` stays readable; everything else is percent-encoded as a URL would carry it. */
function shownEncoded(value: string): string {
  return value.split(REDACTED).map(encodeURIComponent).join(REDACTED);
}
