// Records as columns: what goes in comes out, absent fields absent and null values null.
import { describe, expect, it } from "vitest";
import { fromColumns, toColumns } from "../../../src/publish/incremental/columns.js";

describe("toColumns / fromColumns", () => {
  it("gives back the records, absent fields absent, nulls and nested values as they were", () => {
    const records = [
      { number: 1, name: "A", overflowCapacity: null, cities: ["Lyon"] },
      { number: 2, name: "B", cities: [] },
      { number: 3, label: "only here", cities: ["Paris", "Lyon"] },
    ];
    const back = fromColumns<object>(JSON.parse(JSON.stringify(toColumns(records))));
    expect(back).toEqual(records);
    expect(back?.map((record) => Object.keys(record))).toEqual([
      ["number", "name", "overflowCapacity", "cities"],
      ["number", "name", "cities"],
      ["number", "cities", "label"],
    ]);
  });

  it("refuses malformed columns (null, not a record list)", () => {
    const columns = toColumns([{ a: 1 }, { a: 2 }]);
    expect(fromColumns({ ...columns, count: 3 })).toBeNull();
    expect(fromColumns({ ...columns, values: [] })).toBeNull();
  });
});
