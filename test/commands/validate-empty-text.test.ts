// A text field that may be empty (an address, a zip code, a city) but never null, as a database's
// JSON export leaves it: `validate` says to write "" for none, not only that it is missing.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixtureCopy, runCli } from "../helpers.js";

describe("validate says how to write a text that is empty", () => {
  it('asks for "" in place of a null or missing address, zip code or city', async () => {
    const source = await fixtureCopy();
    const path = join(source, "parkings.json");
    const file = JSON.parse(await readFile(path, "utf8"));
    const [first, second] = file.parkings;
    first.address = null;
    delete first.zipCode;
    second.city = null;
    await writeFile(path, JSON.stringify(file));
    const result = await runCli(["validate", "--source", source]);
    expect(result.code).toBe(1);
    const errors = result.stderr.split("\n").filter((line) => line.includes(" error: "));
    const of = (parking: { contract: string; number: number }) =>
      `${path}[${file.parkings.indexOf(parking)}] (${parking.contract} #${parking.number})`;
    expect(errors).toEqual([
      `  error: ${of(first)} address: expected string, got null: write "" where there is none (a text, never null)`,
      `  error: ${of(first)} zipCode: is required: write "" where there is none`,
      `  error: ${of(second)} city: expected string, got null: write "" where there is none (a text, never null)`,
    ]);
  });
});
