// A request's log line, `METHOD TARGET STATUS 1.2ms` (then `key ID` for an accepted key), as text or written as bytes into a buffer:
// a busy server logs tens of thousands a second, and joining each into a string, then the strings
// into a batch, then encoding the batch cost ~0.5 µs a request (strings flattened twice, each
// kept alive until written). Both forms are made here, so that they cannot drift apart.
import type { Asked } from "./asked.js";
import { redactText } from "./redact.js";

const NOT_READ = "(target not read)";
const NOT_DELIVERED = "not delivered: the connection closed after ";
const KNOWN_METHODS = new Map(
  ["GET", "HEAD", "OPTIONS"].map((method) => [method, Buffer.from(method)] as const),
);
const NOT_READ_BYTES = Buffer.from(NOT_READ);
const NOT_DELIVERED_BYTES = Buffer.from(NOT_DELIVERED);
const SPACE = 0x20;
const DOT = 0x2e;
const NEWLINE = 0x0a;
const ZERO = 0x30;
const MS = Buffer.from("ms");
const KEY = Buffer.from(" key ");

/** The methods the server knows are logged as they are; anything else is a client's raw bytes. */
export function shownMethod(method: string | undefined): string {
  return method !== undefined && KNOWN_METHODS.has(method) ? method : redactText(method ?? "");
}

/** What a line names a request by. Only what the handler parsed reaches the log. */
export const shownTarget = (asked: Asked | undefined): string => asked?.logged ?? NOT_READ;

/** What a line names a request by (`GET /path?query`): the line's start, and an error's. */
export const shownRequest = (method: string | undefined, asked: Asked | undefined): string =>
  `${shownMethod(method)} ${shownTarget(asked)}`;

/** The line as text (no newline). */
export function requestLineText(
  method: string | undefined,
  asked: Asked | undefined,
  status: number,
  ms: number,
  delivered: boolean,
  keyId: string | null = null,
): string {
  const took = `${tenths(ms)}ms`;
  const key = keyId === null ? "" : ` key ${keyId}`;
  return `${shownRequest(method, asked)} ${status} ${delivered ? took : `${NOT_DELIVERED}${took}`}${key}`;
}

/** The bytes of the target as a line shows it. */
export const targetBytes = (asked: Asked | undefined): Uint8Array =>
  asked?.loggedBytes ?? NOT_READ_BYTES;

/** The bytes of the method as a line shows it. */
export function methodBytes(method: string | undefined): Uint8Array {
  return (method !== undefined && KNOWN_METHODS.get(method)) || Buffer.from(shownMethod(method));
}

/** The most bytes writeRequestLine writes after a prefix, for this method, target and key id. */
export const requestLineBound = (
  method: Uint8Array,
  target: Uint8Array,
  keyId: Uint8Array | null,
): number =>
  method.byteLength +
  target.byteLength +
  NOT_DELIVERED_BYTES.byteLength +
  48 +
  (keyId === null ? 0 : KEY.byteLength + keyId.byteLength);

/**
 * Writes `prefix METHOD TARGET STATUS 1.2ms\n` into `buffer` at `at`, which must have room for
 * the prefix and requestLineBound; returns the offset after it. Numbers are written digit by digit.
 */
export function writeRequestLine(
  buffer: Uint8Array,
  at: number,
  prefix: Uint8Array,
  method: Uint8Array,
  target: Uint8Array,
  status: number,
  ms: number,
  delivered: boolean,
  keyId: Uint8Array | null,
): number {
  let to = at;
  buffer.set(prefix, to);
  to += prefix.byteLength;
  buffer[to++] = SPACE;
  buffer.set(method, to);
  to += method.byteLength;
  buffer[to++] = SPACE;
  buffer.set(target, to);
  to += target.byteLength;
  buffer[to++] = SPACE;
  to = writeWhole(buffer, to, status);
  buffer[to++] = SPACE;
  if (!delivered) {
    buffer.set(NOT_DELIVERED_BYTES, to);
    to += NOT_DELIVERED_BYTES.byteLength;
  }
  const tenthsOf = wholeTenths(ms);
  if (tenthsOf === undefined)
    for (const char of ms.toFixed(1)) buffer[to++] = char.charCodeAt(0); // NaN, -0.5
  else {
    to = writeWhole(buffer, to, Math.floor(tenthsOf / 10));
    buffer[to++] = DOT;
    buffer[to++] = ZERO + (tenthsOf % 10);
  }
  buffer.set(MS, to);
  to += MS.byteLength;
  if (keyId !== null) {
    buffer.set(KEY, to);
    to += KEY.byteLength;
    buffer.set(keyId, to);
    to += keyId.byteLength;
  }
  buffer[to++] = NEWLINE;
  return to;
}

/** A whole number ≥ 0 below 2^53 in decimal. */
function writeWhole(buffer: Uint8Array, at: number, value: number): number {
  let digits = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  let rest = value;
  for (let place = at + digits - 1; place >= at; place--) {
    buffer[place] = ZERO + (rest % 10);
    rest = Math.floor(rest / 10);
  }
  return at + digits;
}

/**
 * Milliseconds rounded to a tenth, written with one decimal (`12.0`, `0.4`) from integers, which
 * V8 turns into strings cheaply: toFixed went through printf, ~0.5 µs of each request.
 */
export function tenths(ms: number): string {
  const tenthsOf = wholeTenths(ms);
  if (tenthsOf === undefined) return ms.toFixed(1);
  return `${Math.floor(tenthsOf / 10)}.${tenthsOf % 10}`;
}

/** Milliseconds in whole tenths; undefined when that is no whole number ≥ 0 (NaN, negative, huge). */
function wholeTenths(ms: number): number | undefined {
  const tenthsOf = Math.round(ms * 10);
  return tenthsOf >= 0 && tenthsOf < Number.MAX_SAFE_INTEGER ? tenthsOf : undefined;
}
