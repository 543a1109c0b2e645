// A cache value's typed arrays kept as their bytes beside its JSON: what is read is what was
// written, and a table that does not fit its bytes is no value at all.
import { endianness } from "node:os";
import { describe, expect, it } from "vitest";
import { type Packed, packColumns, unpackColumns } from "../../src/tree/cache-columns.js";
import { readRefreshCache, writeRefreshCache } from "../../src/tree/refresh-cache.js";
import { tempDir } from "../helpers.js";

const bytesOf = (packed: Packed): Buffer =>
  Buffer.concat(
    packed.columns.map(
      (column) => new Uint8Array(column.buffer, column.byteOffset, column.byteLength),
    ),
  );

const value = () => ({
  format: 10,
  states: {
    status: Int8Array.of(-1, 3, 2),
    times: ["2026-12-05T23:55:25Z"],
    main: Int32Array.of(0, 2_147_483_647, 5),
  },
  // Past 2³¹ (a list of millions of stations), and a view that starts inside its buffer.
  offsets: [Float64Array.of(1, 3_000_000_001.5), new Float64Array(new ArrayBuffer(32), 8, 2)],
  digests: [Buffer.from("a digest of twenty b")],
  statusAt: null,
});

describe("a cache value's columns", () => {
  it("are read back as written, each of its kind, through the cache file", async () => {
    const folder = await tempDir();
    const written = value();
    (written.offsets[1] as Float64Array).set([7, 8]);
    writeRefreshCache(folder, written);
    const read = readRefreshCache(folder)?.value as ReturnType<typeof value>;
    expect(read).toEqual(written);
    expect(read.states.status).toBeInstanceOf(Int8Array);
    expect(read.states.main).toBeInstanceOf(Int32Array);
    expect(read.offsets[0]).toBeInstanceOf(Float64Array);
    expect(Buffer.isBuffer(read.digests[0])).toBe(true);
    expect(Array.from(read.offsets[1] as Float64Array)).toEqual([7, 8]);
  });

  it("leave a value without any as plain JSON", () => {
    expect(packColumns({ positions: [[1, 2]], paths: ["/a"] })).toBeNull();
    expect(unpackColumns({ positions: [[1, 2]] }, Buffer.alloc(0))).toEqual({
      positions: [[1, 2]],
    });
  });

  it("are refused when the table does not fit the bytes, names another kind, or another byte order", () => {
    const packed = packColumns(value()) as Packed;
    const header = JSON.parse(packed.json);
    const bytes = bytesOf(packed);
    expect(unpackColumns(header, bytes)).toEqual(value());
    expect(unpackColumns(header, bytes.subarray(1))).toBeNull();
    expect(unpackColumns(header, Buffer.concat([bytes, Buffer.alloc(1)]))).toBeNull();
    const otherKind = structuredClone(header);
    otherKind.$columns[0][0] = "BigInt64Array";
    expect(unpackColumns(otherKind, bytes)).toBeNull();
    const other = endianness() === "LE" ? "BE" : "LE";
    expect(unpackColumns({ ...header, endianness: other }, bytes)).toBeNull();
  });
});
