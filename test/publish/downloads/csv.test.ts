import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { csvChunks } from "../../../src/publish/downloads/csv.js";
import type { Table } from "../../../src/publish/downloads/tables.js";

const table: Table<{ name: string; address: string }> = {
  name: "places",
  title: "Places",
  columns: [
    { name: "name", type: "string", description: "", value: (record) => record.name },
    { name: "address", type: "string", description: "", value: (record) => record.address },
  ],
  primaryKey: ["name"],
};

describe("csvChunks", () => {
  it("quotes a cell holding a line break, whichever: each record stays one row", () => {
    const records = [
      { name: "LF", address: "Place de la\nRévolution; côté Nord" },
      { name: "CR", address: "Quai\rSud" },
      { name: 'a "quote", a comma', address: "plain" },
    ];
    const csv = Buffer.concat(csvChunks(table, records)).toString("utf8");
    expect(csv).toContain('"Place de la\nRévolution; côté Nord"');
    expect(csv).toContain('"Quai\rSud"');
    // Read back as a strict reader does, every line ending recognised.
    const rows = parse(csv, { columns: true, record_delimiter: ["\r\n", "\n", "\r"] });
    expect(rows).toEqual(records);
  });
});
