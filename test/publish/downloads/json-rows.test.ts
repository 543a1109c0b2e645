// jsonRows: the JSON array of a table in a few big chunks, byte for byte what one buffer per row gives.
import { describe, expect, it } from "vitest";
import { jsonRows } from "../../../src/publish/downloads/json-rows.js";
import { encodeJson, jsonList } from "../../../src/publish/render/json-body.js";

const rowValue = (index: number) => ({ number: index, name: `Rue de l’Église ${index}`, ok: true });
const perRow = (records: number[]) =>
  Buffer.concat(jsonList(records.map((r) => encodeJson(rowValue(r)))));

describe("jsonRows", () => {
  it("gives the bytes of a list of encoded rows, across several batches", () => {
    const records = Array.from({ length: 25_001 }, (_, index) => index);
    const chunks = jsonRows(records, rowValue);
    expect(chunks.length).toBe(3); // batches of 10,000 rows
    expect(Buffer.concat(chunks).equals(perRow(records))).toBe(true);
  });

  it("writes an empty table as [] and a single row as [row]", () => {
    expect(Buffer.concat(jsonRows([], rowValue)).toString()).toBe("[]");
    expect(Buffer.concat(jsonRows([7], rowValue)).equals(perRow([7]))).toBe(true);
  });
});
