// What a record's schema expects at a path of the record: the fields of an object, a whole number,
// a text that may be empty.
import { z } from "zod";

/** The fields of the object `schema` reads at `path` (none where it is not an object). */
export function fieldsAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  const at = schemaAt(schema, path);
  return at instanceof z.ZodObject ? Object.keys(at.shape) : [];
}

/** True when `schema` reads a whole number at `path` (a count, a record's number). */
export function wholeNumberAt(schema: z.ZodType, path: readonly PropertyKey[]): boolean {
  const at = schemaAt(schema, path);
  return at instanceof z.ZodNumber && at.isInt === true;
}

/**
 * True when `schema` requires a text at `path` that may be empty (an address): "" is its "none",
 * not null. A field that may be left out (a contract's timezone) is none of these.
 */
export function emptyTextAt(schema: z.ZodType, path: readonly PropertyKey[]): boolean {
  const parent = schemaAt(schema, path.slice(0, -1));
  const key = path.at(-1);
  if (!(parent instanceof z.ZodObject) || key === undefined) return false;
  const field: unknown = parent.shape[String(key)];
  return field instanceof z.ZodString && field.safeParse("").success;
}

/** The schema of the value at `path`, unwrapped (undefined past what it describes). */
function schemaAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodType | undefined {
  let at: z.ZodType | undefined = unwrapped(schema);
  for (const key of path) {
    if (at instanceof z.ZodObject) at = unwrapped(at.shape[String(key)]);
    else if (at instanceof z.ZodArray) at = unwrapped(at.element as z.ZodType);
    else return undefined;
  }
  return at;
}

/** The schema inside a nullable, optional, default or transform. */
function unwrapped(schema: z.ZodType | undefined): z.ZodType | undefined {
  let at = schema;
  for (;;) {
    if (at instanceof z.ZodNullable || at instanceof z.ZodOptional || at instanceof z.ZodDefault)
      at = at.unwrap() as z.ZodType;
    else if (at instanceof z.ZodPipe) at = at.in as z.ZodType;
    else return at;
  }
}
