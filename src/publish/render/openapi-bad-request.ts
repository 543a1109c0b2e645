// The example of an operation's 400: the error a malformed request of it gets, worded by the same
// code that answers it (the route matcher, the path check), never a placeholder.
import { matchRoute } from "../../routes/match-route.js";
import { placeholdersOf } from "../../routes/pattern.js";
import type { AnyRoute } from "../../routes/route.js";
import { badPathMessage, safePath } from "../../serve/safe-path.js";

/** One way to ask for a route: its path pattern, and the query parameters that form takes. */
export interface AskedForm {
  route: AnyRoute;
  path: string;
  query: readonly string[];
}

// What each kind of parameter is given: a contract that exists (the examples'), one value of a
// list, and a number mistyped (starting with a digit: no contract's name would).
const MISTYPED_NUMBER = "12b";

/**
 * The error a malformed request of `forms` gets: a number misspelt where one is asked for, else a
 * query parameter given empty, else a path with a dot segment (which any path can be given).
 */
export function badRequestExample(forms: readonly AskedForm[], contract: string): string {
  const fill = (form: AskedForm, name: string): string => {
    const type = form.route.params[name];
    if (type?.kind === "number") return MISTYPED_NUMBER;
    if (type?.kind === "oneOf") return type.values[0] as string;
    return contract;
  };
  const said = (form: AskedForm, query: URLSearchParams): string | undefined => {
    const path = form.path.replace(/\{(\w+)\}/g, (_, name: string) => fill(form, name));
    const match = matchRoute(path.split("/").filter(Boolean), query);
    return match.kind === "invalid" ? match.message : undefined;
  };
  const numbered = (form: AskedForm) =>
    [...placeholdersOf(form.path), ...form.query].some(
      (name) => form.route.params[name]?.kind === "number",
    );
  const given = (form: AskedForm, names: readonly string[]) =>
    names.map((name): [string, string] => [name, fill(form, name)]);
  for (const form of forms.filter(numbered)) {
    const message = said(form, new URLSearchParams(given(form, form.query)));
    if (message) return message;
  }
  for (const form of forms.filter((each) => each.query.length > 0)) {
    const [empty, ...rest] = form.query as [string, ...string[]];
    const query = new URLSearchParams([[empty, ""], ...given(form, rest)]);
    const message = said(form, query);
    if (message) return message;
  }
  const path = safePath(`${(forms[0] as AskedForm).path.replace(/\/$/, "")}/..`);
  return path.ok ? "" : badPathMessage(path.reason);
}
