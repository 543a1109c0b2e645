// The route table as nginx `map` lines: which raw request URIs a file of the tree answers, with the route's access and freshness.
import { MAX_NUMBER_DIGITS } from "../../model/record-number.js";
import { keptAs } from "../../routes/max-age.js";
import { placeholdersOf } from "../../routes/pattern.js";
import type { AnyRoute, ParamType } from "../../routes/route.js";
import { dispositionOf, fileOf } from "../../routes/routes.js";

/** One line of the answer map: a regex on `METHOD:RAW_URI`, and `ACCESS FRESHNESS FILE`. */
export interface AnswerLine {
  regex: string;
  value: string;
}

// Only values whose raw, decoded and file forms are the same are answered from files; any other
// spelling (upper case, percent-escapes, leading zeros, extra parameters) goes to `velodata serve`,
// which knows the contract names without regard to case and every status rule.
const CONTRACT = "[a-z][a-z0-9_-]*";
const NUMBER = `0|[1-9][0-9]{0,${MAX_NUMBER_DIGITS - 1}}`;
const KEY_PARAM = "apiKey=[^&#]*";
const METHODS = "(?:GET|HEAD):";

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** The nginx variable a placeholder's value is captured in: the instance's prefix, then its name. */
const variable = (prefix: string, name: string): string => `${prefix}_${name}`;

function valueRegex(type: ParamType): string {
  if (type.kind === "contract") return CONTRACT;
  if (type.kind === "number") return NUMBER;
  return type.values.map(escapeRegExp).join("|");
}

/** The pattern's literal parts escaped, each placeholder a named capture of its typed value. */
function pathRegex(
  pattern: string,
  params: Readonly<Record<string, ParamType>>,
  prefix: string,
): string {
  return pattern
    .split(/(\{\w+\})/)
    .map((part) => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      if (!name) return escapeRegExp(part);
      const type = params[name];
      if (!type) throw new Error(`{${name}} has no parameter type`);
      return `(?<${variable(prefix, name)}>${valueRegex(type)})`;
    })
    .join("");
}

/** The query string: the form's parameters in order, with the key before or after them, or alone. */
function queryRegex(route: AnyRoute, names: readonly string[], prefix: string): string {
  const params = names.map((name) => {
    const type = route.params[name];
    if (!type) throw new Error(`query parameter ${name} of ${route.name} has no type`);
    return `${name}=(?<${variable(prefix, name)}>${valueRegex(type)})`;
  });
  if (params.length === 0) return `(?:\\?${KEY_PARAM})?`;
  const joined = params.join("&");
  return `\\?(?:${KEY_PARAM}&)?${joined}(?:&${KEY_PARAM})?`;
}

/** The file of the route's path form, with nginx variables where the placeholders are. */
function fileTemplate(route: AnyRoute, prefix: string): string {
  for (const name of placeholdersOf(route.path)) if (!(name in route.params)) throw new Error(name);
  const path = route.path.replace(
    /\{(\w+)\}/g,
    (_, name: string) => `\${${variable(prefix, name)}}`,
  );
  return `/${fileOf(path)}`;
}

/** Every form of every route answered by a file of the tree: the query form first, as `serve` matches. */
export function answerLines(routes: readonly AnyRoute[], prefix: string): AnswerLine[] {
  const lines: AnswerLine[] = [];
  for (const route of routes) {
    if (route.served !== "release") continue;
    // The location it is sent from sets its lifetime: a static GBFS feed's is its station_status's.
    const value = `${route.access} ${keptAs(route)} ${fileTemplate(route, prefix)}`;
    if (route.query) {
      const path = pathRegex(route.query.path, route.params, prefix);
      lines.push({
        regex: `^${METHODS}${path}${queryRegex(route, route.query.params, prefix)}$`,
        value,
      });
    }
    lines.push({
      regex: `^${METHODS}${pathRegex(route.path, route.params, prefix)}${queryRegex(route, [], prefix)}$`,
      value,
    });
  }
  return lines;
}

/** The files to save rather than show (the bundle), by their file in the tree, and their Content-Disposition. */
export function dispositionLines(
  routes: readonly AnyRoute[],
  prefix: string,
): { file: string; disposition: string }[] {
  return routes.flatMap((route) => {
    const disposition = dispositionOf(route);
    if (route.served !== "release" || disposition === undefined) return [];
    // One file each: a `map` on the file names it exactly.
    if (placeholdersOf(route.path).length > 0)
      throw new Error(`${route.name}: a file to save must have a path without parameters`);
    return [{ file: fileTemplate(route, prefix), disposition }];
  });
}
