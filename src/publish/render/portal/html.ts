// A tagged template for HTML that escapes every interpolated value unless it is already markup.

const RAW = Symbol("html");

/** Markup that is inserted as it is: the result of `html`, never user text. */
export interface Html {
  readonly [RAW]: string;
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);

type Value = Html | string | number | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map(render).join("");
  if (typeof value === "object") return (value as Html)[RAW];
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0] as string;
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] as string);
  });
  return { [RAW]: out };
}

export const markup = (fragment: Html): string => fragment[RAW];
