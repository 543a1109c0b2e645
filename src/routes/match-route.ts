// The route table read backwards: which endpoint a request (decoded path segments + query) asks for.
import { excerpt } from "../errors.js";
import { CONTRACT_NAME } from "../model/contract.js";
import { MAX_NUMBER_DIGITS } from "../model/record-number.js";
import { type CompiledPattern, compilePattern, readPattern } from "./pattern.js";
import type { AnyRoute } from "./route.js";
import { type Endpoint, ROUTE_LIST } from "./routes.js";

export type RouteMatch =
  | { kind: "endpoint"; endpoint: Endpoint }
  /**
   * A known route whose number is spelled otherwise than its URL in the tree (`042`, `+42`,
   * `42.0`): no file of any host answers it, so it is answered as a record that does not exist
   * (its contract's rules first), the same from every host.
   */
  | { kind: "absent"; endpoint: Endpoint }
  /**
   * A known route asked for wrongly: a clear 400, after the key when the route needs one (a
   * request without a valid key learns nothing of the API but 403).
   */
  | { kind: "invalid"; message: string; keyed: boolean }
  | { kind: "none" };

const NONE: RouteMatch = { kind: "none" };
const invalid = (route: AnyRoute, message: string): RouteMatch => ({
  kind: "invalid",
  message,
  keyed: route.access === "key",
});

/** A number as the tree's URLs spell it: no sign, no leading zero, no fraction, no space. */
const CANONICAL_NUMBER = new RegExp(`^(?:0|[1-9]\\d{0,${MAX_NUMBER_DIGITS - 1}})$`);
/** Any spelling of a whole number a client may mean (`042`, `+42`, `42.0`, ` 42`): its digits. */
const SPELLED_NUMBER = new RegExp(`^\\s*\\+?0*(\\d{1,${MAX_NUMBER_DIGITS}})(?:\\.0*)?\\s*$`);

/** What is wrong with a number that is not SPELLED_NUMBER nor LONG_NUMBER: its sign, or its form. */
function notWholeNumber(text: string): string {
  if (/^-\d+$/.test(text)) return "must be 0 or more";
  return "must be a whole number";
}

/** A whole number past MAX_NUMBER_DIGITS: a record no source can hold, so none that exists. */
const LONG_NUMBER = /^\s*\+?\d+(?:\.0*)?\s*$/;

interface Compiled {
  route: AnyRoute;
  path: CompiledPattern;
  query?: { path: CompiledPattern; params: readonly string[] };
}

// Compiled once: matching is on the hot path of every request.
const COMPILED: readonly Compiled[] = ROUTE_LIST.map((route) => ({
  route,
  path: compilePattern(route.path),
  query: route.query && { path: compilePattern(route.query.path), params: route.query.params },
}));

/**
 * Whether a path asked without its trailing slash (`/docs`) is a folder route's (`/docs/`):
 * servers send it there with a 301, as static hosts do.
 */
export function isFolderWithoutSlash(segments: readonly string[], query: URLSearchParams): boolean {
  return segments.length > 0 && matchRoute(segments, query, true).kind === "endpoint";
}

/**
 * Query forms first (`/vls/v3/stations?contract=C` must not read as the list of all stations),
 * then a query form asked without its query (a clear 400), then the path forms, in table order.
 * `folder`: the request ended in `/`. Only then does a folder's page (`/docs/`) answer, as on a
 * static host: its relative links need the slash; other rows answer with or without it.
 */
export function matchRoute(
  segments: readonly string[],
  query: URLSearchParams,
  folder = false,
): RouteMatch {
  const path = `/${segments.join("/")}`;
  const folderPath = segments.length === 0 ? "/" : folder ? `${path}/` : undefined;
  for (const { route, query: form } of COMPILED) {
    if (!form?.params.every((name) => query.has(name))) continue;
    const raw = readPattern(form.path, path);
    if (!raw) continue;
    const empty = form.params.find((name) => query.get(name) === "");
    if (empty) {
      // `/vls/v3/stations/dublin?contract=` is no station "dublin" but the path form, whose
      // parameter given empty says nothing (as on `/vls/v3/stations/dublin/42?contract=`).
      const asPath =
        typed(route, raw, false)?.kind === "invalid" && pathForm(path, folderPath, query);
      if (asPath && named(asPath)) return asPath;
      return invalid(route, `the ${empty} parameter is empty: ?${empty}=NAME`);
    }
    // Two values: which one was meant cannot be told (the same value twice says no more than once,
    // in any case, as contracts are named).
    const twice = form.params.find(
      (name) => new Set(query.getAll(name).map((value) => value.toLowerCase())).size > 1,
    );
    if (twice) return invalid(route, `the ${twice} parameter is given twice with different values`);
    for (const name of form.params) raw[name] = query.get(name) as string;
    const match = typed(route, raw);
    if (match?.kind === "invalid") {
      // `/vls/v3/stations/dublin?contract=dublin` is no station "dublin" but the path form of a
      // contract's list, its contract repeated in the query: that form answers when it agrees.
      const asPath = pathForm(path, folderPath, query);
      if (asPath && named(asPath)) return asPath;
      // `…/stations/dublin?contract=lyon`: which was meant cannot be told, so both are said; but
      // `…/stations/4two?contract=lyon` names no contract (a name starts with a letter).
      const segment = segments[segments.length - 1] ?? "";
      const other = form.params.find((name) => differs(query.getAll(name), segment));
      if (asPath?.kind === "invalid" && other && CONTRACT_NAME.test(segment.toLowerCase()))
        return invalid(
          route,
          `${match.message}; or, if ${segment} is a contract, ${path} is its list, but ?${other}= names another`,
        );
      return match;
    }
    if (match) return match;
  }
  for (const { route, query: form } of COMPILED) {
    // Only a form with a typed part in its path says enough to be sure which route was meant.
    if (!form || form.path.names.length === 0) continue;
    const raw = readPattern(form.path, path);
    if (!raw) continue;
    const missing = form.params.filter((name) => !query.has(name));
    if (missing.length === 0 || !named(typed(route, raw, false))) continue;
    const wanted = missing.map((name) => `${name}=NAME`).join("&");
    return invalid(route, `the ${missing.join(", ")} parameter is required: ${path}?${wanted}`);
  }
  return pathForm(path, folderPath, query) ?? NONE;
}

/** The first path form the path reads as, in table order; undefined when none does. */
function pathForm(
  path: string,
  folderPath: string | undefined,
  query: URLSearchParams,
): RouteMatch | undefined {
  for (const { route, path: pattern, query: form } of COMPILED) {
    const asked = route.path.endsWith("/") ? folderPath : path;
    const raw = asked === undefined ? undefined : readPattern(pattern, asked);
    const match = raw && typed(route, raw);
    if (!match) continue;
    // The path form with its query form's parameter too (`/stations/dublin/42?contract=lyon`):
    // which one was meant cannot be told, as for a parameter given twice.
    const other = raw && form?.params.find((name) => differs(query.getAll(name), raw[name]));
    if (other)
      return invalid(
        route,
        `the ${other} is given twice with different values, in the path and in the query`,
      );
    return match;
  }
  return undefined;
}

/**
 * Whether a query gives a value other than the path's (names compared without case, as contracts
 * are; an empty one says nothing).
 */
const differs = (values: readonly string[], inPath: string | undefined): boolean =>
  inPath !== undefined &&
  values.some((value) => value !== "" && value.toLowerCase() !== inPath.toLowerCase());

/** Whether a match names an endpoint, present or absent. */
const named = (match: RouteMatch | undefined): boolean =>
  match?.kind === "endpoint" || match?.kind === "absent";

/**
 * The endpoint with typed values (absent when a number is not spelled canonically), a clear 400 for
 * a malformed number, or undefined: not this route.
 */
function typed(
  route: AnyRoute,
  raw: Readonly<Record<string, string>>,
  complete = true,
): RouteMatch | undefined {
  const endpoint: Record<string, string | number> = { name: route.name };
  let absent = false;
  for (const [name, type] of Object.entries(route.params)) {
    const text = raw[name];
    if (text === undefined) {
      if (complete) return undefined;
      continue;
    }
    if (type.kind === "number") {
      const digits = SPELLED_NUMBER.exec(text)?.[1];
      if (digits === undefined && !LONG_NUMBER.test(text))
        return invalid(route, `${type.what} ${notWholeNumber(text)}, got "${excerpt(text)}"`);
      endpoint[name] = Number(digits ?? text);
      if (digits === undefined || !CANONICAL_NUMBER.test(text)) absent = true;
    } else if (type.kind === "oneOf" && !type.values.includes(text)) {
      return undefined;
    } else {
      endpoint[name] = text;
    }
  }
  return { kind: absent ? "absent" : "endpoint", endpoint: endpoint as unknown as Endpoint };
}
