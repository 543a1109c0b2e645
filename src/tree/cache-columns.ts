// A cache value's typed arrays (a cron refresh's columns of 100,000 stations: their states, where
// their bytes sit) taken out of its JSON and kept as their bytes: a minute's state of ~14 MB
// parsed from JSON and printed again took ~0.16 s of each minute, its bytes are copied.
import { endianness } from "node:os";

const KINDS = { Int8Array, Int32Array, Float64Array, Uint8Array } as const;
type Kind = keyof typeof KINDS;
export type Column = InstanceType<(typeof KINDS)[Kind]>;

/** Where a column stood in the value: its place in the table. */
const PLACE = "$column";

/** The value's JSON with each column replaced by its place, and the columns in that order. */
export interface Packed {
  json: string;
  columns: Column[];
}

/** `value` packed, or null when it holds no column (its JSON is then written as is). */
export function packColumns(value: unknown): Packed | null {
  const columns: Column[] = [];
  const placed = placeColumns(value, columns);
  if (columns.length === 0) return null;
  const table = columns.map((column) => [kindOf(column), column.length]);
  return {
    json: JSON.stringify({ $columns: table, endianness: endianness(), value: placed }),
    columns,
  };
}

/** A column's bytes, as they lie in memory. */
export const bytesOf = (column: Column): Uint8Array =>
  new Uint8Array(column.buffer, column.byteOffset, column.byteLength);

// Arrays of numbers or text (a static state's 200,000 positions) are kept as they are.
const holdsObjects = (items: readonly unknown[]): boolean =>
  items.some((item) => item !== null && typeof item === "object");

function placeColumns(value: unknown, columns: Column[]): unknown {
  if (ArrayBuffer.isView(value)) return { [PLACE]: columns.push(value as Column) - 1 };
  if (Array.isArray(value))
    return holdsObjects(value) ? value.map((item) => placeColumns(item, columns)) : value;
  if (value === null || typeof value !== "object") return value;
  const placed: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) placed[key] = placeColumns(item, columns);
  return placed;
}

function kindOf(column: ArrayBufferView): Kind {
  for (const [kind, type] of Object.entries(KINDS)) if (column instanceof type) return kind as Kind;
  throw new Error(`bug: a cache column of another kind (${column.constructor.name})`);
}

/**
 * The value `parsed` (a packed value's JSON, parsed) with its columns, copied from `bytes` (their
 * bytes one after the other); `parsed` itself when it was not packed; null when the table does
 * not fit the bytes or was written on a machine of the other byte order.
 */
export function unpackColumns(parsed: unknown, bytes: Uint8Array): unknown {
  if (!packed(parsed)) return parsed;
  const unpacked = unpackLeading(parsed, bytes);
  return unpacked && unpacked.size === bytes.byteLength ? unpacked.value : null;
}

const packed = (parsed: unknown): parsed is object =>
  parsed !== null && typeof parsed === "object" && "$columns" in parsed;

/** The value's fields (its columns not read) of a packed value's JSON, parsed; else `parsed`. */
export const fieldsOf = (parsed: unknown): unknown =>
  packed(parsed) ? (parsed as { value?: unknown }).value : parsed;

/**
 * unpackColumns of columns at the start of `bytes`, and how many bytes they took (none when
 * `parsed` was not packed).
 */
export function unpackLeading(
  parsed: unknown,
  bytes: Uint8Array,
): { value: unknown; size: number } | null {
  if (!packed(parsed)) return { value: parsed, size: 0 };
  const { $columns: table, endianness: order, value } = parsed as Record<string, unknown>;
  if (!Array.isArray(table) || order !== endianness()) return null;
  const columns: Column[] = [];
  let at = 0;
  for (const entry of table) {
    const [kind, length] = Array.isArray(entry) ? entry : [];
    const type = Object.hasOwn(KINDS, kind) ? KINDS[kind as Kind] : undefined;
    if (!type || !Number.isSafeInteger(length) || length < 0) return null;
    const size = length * type.BYTES_PER_ELEMENT;
    if (at + size > bytes.byteLength) return null;
    const column = new type(length);
    new Uint8Array(column.buffer).set(bytes.subarray(at, at + size));
    columns.push(kind === "Uint8Array" ? Buffer.from(column.buffer) : column);
    at += size;
  }
  return { value: restoreColumns(value, columns), size: at };
}

function restoreColumns(value: unknown, columns: readonly Column[]): unknown {
  if (Array.isArray(value))
    return holdsObjects(value) ? value.map((item) => restoreColumns(item, columns)) : value;
  if (value === null || typeof value !== "object") return value;
  if (PLACE in value) return columns[(value as Record<string, number>)[PLACE] as number] ?? null;
  const restored: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) restored[key] = restoreColumns(item, columns);
  return restored;
}
