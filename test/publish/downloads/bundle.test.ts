import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { copyFile, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Ajv } from "ajv";
import { parse } from "csv-parse/sync";
import { unzipSync } from "fflate";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Contract } from "../../../src/model/contract.js";
import { renderBundle } from "../../../src/publish/downloads/bundle.js";
import { openApiDocument } from "../../../src/publish/publish.js";
import type { Dataset } from "../../../src/source/dataset.js";
import { readDataset } from "../../../src/source/read-dataset.js";
import { FIXTURES, REFERENCE, tempDir } from "../../helpers.js";
import { fixtureDataset, GENERATED_AT, MEANING_SENTENCE } from "../publish-helpers.js";

// The official profiles (test/reference/frictionless, see its SOURCE.txt): JSON Schema draft-07.
const frictionless = new Ajv({ strict: false, allErrors: true });

interface Field {
  name: string;
  type: string;
  description?: string;
  missingValues?: string[];
}

/**
 * Reads a CSV back with the types its Table Schema declares, as a Frictionless reader would: a
 * field's own `missingValues` over the schema's, whose default is `[""]`.
 */
function typedRows(
  csv: string,
  fields: Field[],
  missingValues: string[] = [""],
): Record<string, unknown>[] {
  const rows: Record<string, string>[] = parse(csv, { columns: true });
  return rows.map((row) =>
    Object.fromEntries(
      fields.map((field) => {
        const { name, type } = field;
        const cell = row[name] as string;
        if ((field.missingValues ?? missingValues).includes(cell)) return [name, null];
        if (type === "integer" || type === "number") return [name, Number(cell)];
        if (type === "boolean") return [name, cell === "true"];
        if (type === "array") return [name, JSON.parse(cell)];
        return [name, cell];
      }),
    ),
  );
}

let dataset: Dataset;
let entries: Record<string, Uint8Array>;
beforeAll(async () => {
  dataset = await fixtureDataset();
  entries = unzipSync(Buffer.concat(await renderBundle(dataset)));
});
const entryText = (name: string) => Buffer.from(entries[name] as Uint8Array).toString("utf8");

describe("static bundle", () => {
  it("holds contracts, stations and parkings as JSON and CSV, and a data package", () => {
    expect(Object.keys(entries).sort()).toEqual([
      "contracts.csv",
      "contracts.json",
      "datapackage.json",
      "parkings.csv",
      "parkings.json",
      "stations.csv",
      "stations.json",
    ]);
  });

  it("describes every CSV with a Table Schema whose fields are the CSV's header", () => {
    const descriptor = JSON.parse(entryText("datapackage.json"));
    expect(descriptor.$schema).toBe("https://datapackage.org/profiles/2.0/datapackage.json");
    const tables = descriptor.resources.filter(
      (resource: { type?: string }) => resource.type === "table",
    );
    expect(tables.map((t: { path: string }) => t.path)).toEqual([
      "contracts.csv",
      "stations.csv",
      "parkings.csv",
    ]);
    for (const table of tables) {
      const header = entryText(table.path).split("\r\n")[0];
      expect(header).toBe(table.schema.fields.map((field: Field) => field.name).join(","));
    }
  });

  it("claims a licence for the whole package only when every contract states that one", async () => {
    // The fixtures: toulouse, lyon and nantes state ODbL, dublin CC BY, besancon the Licence Ouverte.
    const descriptor = JSON.parse(entryText("datapackage.json"));
    expect(descriptor.licenses).toBeUndefined();
    expect(descriptor.description).toContain(
      "toulouse, lyon, nantes: ODbL-1.0, https://opendatacommons.org/licenses/odbl/1-0/",
    );
    expect(descriptor.description).toContain("dublin: CC-BY-4.0");
    // A contract that states none is said to.
    const { license: _, ...unlicensed } = dataset.contracts[0] as Contract;
    const some = { ...dataset, contracts: [unlicensed, ...dataset.contracts.slice(1)] };
    const mixed = unzipSync(Buffer.concat(await renderBundle(some)))["datapackage.json"];
    expect(Buffer.from(mixed as Uint8Array).toString("utf8")).toContain(
      "dublin: no licence stated",
    );
    // None states one: said too, not a description silent on licences.
    const description = async (contracts: Contract[]) => {
      const bundle = unzipSync(Buffer.concat(await renderBundle({ ...dataset, contracts })));
      const text = Buffer.from(bundle["datapackage.json"] as Uint8Array).toString("utf8");
      return JSON.parse(text) as { description: string; licenses?: unknown };
    };
    const none = dataset.contracts.map(({ license: _, ...contract }) => contract);
    const unstated = await description(none);
    expect(unstated.licenses).toBeUndefined();
    expect(unstated.description).toMatch(
      / No licence is stated for this data: none of its contracts \(dublin, toulouse, lyon, nantes, besancon\) states one\.$/,
    );
    expect((await description(none.slice(0, 1))).description).toMatch(
      / No licence is stated for this data: its contract, dublin, states none\.$/,
    );

    const odbl = dataset.contracts.find((contract) => contract.license?.id === "ODbL-1.0")?.license;
    const all = { ...dataset, contracts: dataset.contracts.map((c) => ({ ...c, license: odbl })) };
    const shared = unzipSync(Buffer.concat(await renderBundle(all)))["datapackage.json"];
    const sharedDescriptor = JSON.parse(Buffer.from(shared as Uint8Array).toString("utf8"));
    expect(sharedDescriptor.licenses).toEqual([
      { name: "ODbL-1.0", path: "https://opendatacommons.org/licenses/odbl/1-0/" },
    ]);
    expect(sharedDescriptor.description).not.toContain("Licences differ");
    // The same licence, its URL stated by some contracts only: one licence, with that URL.
    const idOnly = { id: "ODbL-1.0" };
    const stated = dataset.contracts.map((c, at) => ({ ...c, license: at === 0 ? idOnly : odbl }));
    const byId = unzipSync(Buffer.concat(await renderBundle({ ...dataset, contracts: stated })));
    const byIdDescriptor = JSON.parse(
      Buffer.from(byId["datapackage.json"] as Uint8Array).toString("utf8"),
    );
    expect(byIdDescriptor.licenses).toEqual(sharedDescriptor.licenses);
    expect(byIdDescriptor.description).not.toContain("Licences differ");
  });

  it("says when a contract's license_id or license_url is empty: no licence, or it is stated the other way", async () => {
    const [first, second, ...rest] = dataset.contracts as Contract[];
    const contracts = [
      { ...first, license: { id: "CC-BY-4.0" } },
      { ...second, license: { url: "https://example.org/licence" } },
      ...rest,
    ] as Contract[];
    const bundle = unzipSync(Buffer.concat(await renderBundle({ ...dataset, contracts })));
    const text = (name: string) => Buffer.from(bundle[name] as Uint8Array).toString("utf8");
    const [idOnly, urlOnly] = JSON.parse(text("contracts.json"));
    expect([idOnly.license_id, idOnly.license_url]).toEqual(["CC-BY-4.0", null]);
    expect([urlOnly.license_id, urlOnly.license_url]).toEqual([
      null,
      "https://example.org/licence",
    ]);
    // A reader told "empty when the contract states none" would take these two as unlicensed.
    const { schema } = JSON.parse(text("datapackage.json")).resources[0];
    const described = (name: string) =>
      schema.fields.find((field: Field) => field.name === name).description as string;
    expect(described("license_url")).toContain("by its SPDX identifier alone (`license_id`");
    expect(described("license_id")).toContain("by its address alone (`license_url`)");
  });

  it("names each operator the data comes from as a source, once, with the contracts it runs", async () => {
    // The fixtures: dublin's operator, and one of the four others.
    const descriptor = JSON.parse(entryText("datapackage.json"));
    expect(descriptor.sources).toEqual([
      {
        title: "JCDecaux Ireland, operator of dublin",
        path: "https://www.dublinbikes.ie",
        email: "info@dublinbikes.ie",
      },
      {
        title: "JCDecaux France, operator of toulouse, lyon, nantes, besancon",
        path: "https://www.jcdecaux.fr",
      },
    ]);

    const dublin = dataset.contracts.find((contract) => contract.name === "dublin") as Contract;
    const contracts: Contract[] = dataset.contracts.map(({ operator: _, ...contract }, index) =>
      index % 2 === 0 ? { ...contract, operator: dublin.operator } : contract,
    );
    const names = contracts.filter((contract) => contract.operator).map(({ name }) => name);
    const shared = unzipSync(Buffer.concat(await renderBundle({ ...dataset, contracts })));
    const sharedDescriptor = JSON.parse(
      Buffer.from(shared["datapackage.json"] as Uint8Array).toString("utf8"),
    );
    expect(sharedDescriptor.sources).toEqual([
      expect.objectContaining({ title: `JCDecaux Ireland, operator of ${names.join(", ")}` }),
    ]);

    const none = dataset.contracts.map(({ operator: _, ...contract }) => contract);
    const anonymous = unzipSync(Buffer.concat(await renderBundle({ ...dataset, contracts: none })));
    expect(Buffer.from(anonymous["datapackage.json"] as Uint8Array).toString("utf8")).not.toContain(
      '"sources"',
    );
  });

  it("is a valid Data Package v2: the package, each resource, dialect and Table Schema", async () => {
    const published = unzipSync(
      Buffer.concat(
        await renderBundle(dataset, new Date("2024-03-09T10:20:30Z"), {
          serviceName: "Vélos de Ville",
          homepage: "https://bikes.example.org/",
        }),
      ),
    )["datapackage.json"] as Uint8Array;
    const descriptors = [entryText("datapackage.json"), Buffer.from(published).toString("utf8")];
    const problems = (profile: string, value: unknown) => {
      const validate = frictionless.compile(
        JSON.parse(readFileSync(join(REFERENCE, "frictionless", `${profile}.json`), "utf8")),
      );
      return validate(value) ? [] : [profile, validate.errors];
    };
    for (const descriptor of descriptors.map((text) => JSON.parse(text))) {
      expect(problems("datapackage", descriptor)).toEqual([]);
      for (const resource of descriptor.resources) {
        expect(problems("dataresource", resource), resource.name).toEqual([]);
        if (resource.dialect) expect(problems("tabledialect", resource.dialect)).toEqual([]);
        if (resource.schema) expect(problems("tableschema", resource.schema)).toEqual([]);
      }
    }
    expect(JSON.parse(descriptors[1] as string)).toMatchObject({
      homepage: "https://bikes.example.org/",
      created: "2024-03-09T10:20:30Z",
    });
  });

  it("says what each field of every table means, as the API's schemas say it of the same field", () => {
    const descriptor = JSON.parse(entryText("datapackage.json"));
    const tables: { name: string; schema: { fields: (Field & { description?: string })[] } }[] =
      descriptor.resources.filter((resource: { schema?: unknown }) => resource.schema);
    expect(tables.map((table) => table.name)).toEqual(["contracts", "stations", "parkings"]);
    const thin = tables.flatMap(({ name, schema }) =>
      schema.fields
        .filter((field) => !MEANING_SENTENCE.test(field.description ?? ""))
        .map((field) => `${name}.${field.name}: ${field.description}`),
    );
    expect(thin).toEqual([]);
    // The API's answer of each table's records, and its name for a column it names otherwise.
    const { components } = openApiDocument(dataset, { generatedAt: GENERATED_AT }) as {
      components: {
        schemas: Record<string, { properties: Record<string, { description: string }> }>;
      };
    };
    const answers = { contracts: "Contract", stations: "StationV3", parkings: "Parking" } as const;
    const renamed: Record<string, string> = { contract: "contractName" };
    // A column may say more (how it is written in CSV, which other column it goes with), never
    // something else: its first sentence is the API's.
    const firstSentence = (text: string) => text.split(/(?<=[a-z)]\.) (?=[A-Z])/)[0];
    let compared = 0;
    for (const { name, schema } of tables)
      for (const field of schema.fields) {
        const property =
          components.schemas[answers[name as keyof typeof answers]]?.properties[
            renamed[field.name] ?? field.name
          ];
        if (!property) continue;
        expect(firstSentence(field.description as string), `${name}.${field.name}`).toBe(
          firstSentence(property.description),
        );
        compared++;
      }
    expect(compared).toBeGreaterThan(20);
  });

  it("gives each resource its file's size and SHA-256, as Frictionless tools check them", () => {
    const descriptor = JSON.parse(entryText("datapackage.json"));
    const described = descriptor.resources.map(
      (resource: { path: string; bytes: number; hash: string }) => [
        resource.path,
        resource.bytes,
        resource.hash,
      ],
    );
    const files = Object.keys(entries).filter((name) => name !== "datapackage.json");
    expect(described.map(([path]: [string]) => path).sort()).toEqual(files.sort());
    for (const [path, bytes, hash] of described) {
      const file = entries[path] as Uint8Array;
      expect(bytes, path).toBe(file.byteLength);
      expect(hash, path).toBe(`sha256:${createHash("sha256").update(file).digest("hex")}`);
    }
  });

  it("declares each station's and parking's contract a key of the contracts, and each holds", () => {
    const descriptor = JSON.parse(entryText("datapackage.json"));
    const names = new Set(
      typedRows(entryText("contracts.csv"), [{ name: "name", type: "string" }]).map(
        (row) => row.name,
      ),
    );
    for (const table of ["stations", "parkings"]) {
      const { schema, path } = descriptor.resources.find((r: { name: string }) => r.name === table);
      expect(schema.foreignKeys).toEqual([
        { fields: ["contract"], reference: { resource: "contracts", fields: ["name"] } },
      ]);
      const rows = typedRows(entryText(path), [{ name: "contract", type: "string" }]);
      expect(rows.filter((row) => !names.has(row.contract))).toEqual([]);
    }
    // The contracts' licences, machine-readable: what the description says in words.
    const licences = typedRows(entryText("contracts.csv"), [
      { name: "name", type: "string" },
      { name: "license_id", type: "string" },
    ]);
    expect(licences).toContainEqual({ name: "dublin", license_id: "CC-BY-4.0" });
  });

  it("bounds numbers, counts, coordinates and country codes as the source's checks do, and each row holds", () => {
    const descriptor = JSON.parse(entryText("datapackage.json"));
    const fieldOf = (resource: string, field: string) =>
      descriptor.resources
        .find((r: { name: string }) => r.name === resource)
        .schema.fields.find((f: Field) => f.name === field);
    const count = { minimum: 0, maximum: 2_147_483_647 };
    expect(fieldOf("contracts", "country_code").constraints).toEqual({
      required: true,
      pattern: "[A-Z]{2}",
    });
    for (const resource of ["stations", "parkings"]) {
      expect(fieldOf(resource, "number").constraints).toEqual({ required: true, ...count });
      expect(fieldOf(resource, "latitude").constraints).toEqual({
        required: true,
        minimum: -90,
        maximum: 90,
      });
      expect(fieldOf(resource, "longitude").constraints).toEqual({
        required: true,
        minimum: -180,
        maximum: 180,
      });
    }
    expect(fieldOf("stations", "capacity").constraints).toEqual({ required: true, ...count });
    expect(fieldOf("stations", "overflowCapacity").constraints).toEqual(count);
    // Every row of every CSV within its fields' bounds, as a Frictionless validation checks them
    // (a pattern matches the whole value).
    type Bounded = Field & {
      constraints?: { minimum?: number; maximum?: number; pattern?: string };
    };
    for (const resource of descriptor.resources.filter((r: { schema?: unknown }) => r.schema)) {
      const fields: Bounded[] = resource.schema.fields;
      const outside: string[] = [];
      typedRows(entryText(resource.path), fields, resource.schema.missingValues).forEach(
        (row, index) => {
          for (const { name, constraints: c = {} } of fields) {
            const value = row[name];
            if (value === null) continue;
            const fits =
              (c.minimum === undefined || (value as number) >= c.minimum) &&
              (c.maximum === undefined || (value as number) <= c.maximum) &&
              (c.pattern === undefined || new RegExp(`^(?:${c.pattern})$`).test(value as string));
            if (!fits) outside.push(`${resource.path} row ${index + 1} ${name}: ${value}`);
          }
        },
      );
      expect(outside).toEqual([]);
    }
  });

  it("parses back: each CSV, read with its schema's types, gives the same records as its JSON", () => {
    const descriptor = JSON.parse(entryText("datapackage.json"));
    for (const name of ["contracts", "stations", "parkings"]) {
      const table = descriptor.resources.find(
        (resource: { name: string }) => resource.name === name,
      );
      const fromCsv = typedRows(
        entryText(`${name}.csv`),
        table.schema.fields,
        table.schema.missingValues,
      );
      expect(fromCsv).toEqual(JSON.parse(entryText(`${name}.json`)));
    }
    expect(JSON.parse(entryText("stations.json"))).toHaveLength(dataset.stations.length);
    expect(JSON.parse(entryText("parkings.json"))).toHaveLength(dataset.parkings.length);
  });

  it("reads an empty address, zip code or city back as the empty string its JSON gives, not null", async () => {
    const [station, ...stations] = dataset.stations;
    const [parking, ...parkings] = dataset.parkings;
    const bundle = unzipSync(
      Buffer.concat(
        await renderBundle({
          ...dataset,
          stations: [{ ...station, address: "" }, ...stations] as Dataset["stations"],
          parkings: [
            { ...parking, address: "", zipCode: "", city: "" },
            ...parkings,
          ] as Dataset["parkings"],
        }),
      ),
    );
    const text = (name: string) => Buffer.from(bundle[name] as Uint8Array).toString("utf8");
    const descriptor = JSON.parse(text("datapackage.json"));
    for (const [name, fields] of [
      ["stations", { address: "" }],
      ["parkings", { address: "", zipCode: "", city: "" }],
    ] as const) {
      const { schema } = descriptor.resources.find((r: { name: string }) => r.name === name);
      const [fromCsv] = typedRows(text(`${name}.csv`), schema.fields, schema.missingValues);
      expect(fromCsv).toMatchObject(fields);
      expect(fromCsv).toEqual(JSON.parse(text(`${name}.json`))[0]);
    }
    // A field that can be null keeps the package's "" missing value.
    const table = descriptor.resources.find((r: { name: string }) => r.name === "stations");
    const overflow = table.schema.fields.find((f: Field) => f.name === "overflowCapacity");
    expect(overflow.missingValues).toBeUndefined();
  });

  it("has a stations.csv that velodata reads back as a source, spaces and tiny numbers kept", async () => {
    const [first, second, ...rest] = dataset.stations;
    const stations = [
      { ...first, name: " leading space", address: "trailing space " },
      { ...second, name: "  ", longitude: -0.0000005, latitude: 1.5e-7 },
      ...rest,
    ] as Dataset["stations"];
    const bundle = unzipSync(Buffer.concat(await renderBundle({ ...dataset, stations })));
    const source = join(await tempDir(), "source");
    await mkdir(source);
    await copyFile(join(FIXTURES, "contracts.json"), join(source, "contracts.json"));
    await writeFile(join(source, "stations.csv"), bundle["stations.csv"] as Uint8Array);
    const read = await readDataset(source);
    expect(read.problems.filter((problem) => problem.severity === "error")).toEqual([]);
    expect(read.dataset?.stations.slice(0, 2)).toEqual(stations.slice(0, 2));
  });

  it("keeps accents, commas and quotes intact", () => {
    const stations = JSON.parse(entryText("stations.json")) as { name: string; address: string }[];
    expect(stations.map((s) => s.name)).toContain("00004 - PONT ROUSSEAU (REZÉ)");
    expect(stations.some((s) => s.address.includes(","))).toBe(true);
    const contracts = JSON.parse(entryText("contracts.json")) as { commercial_name: string }[];
    expect(contracts.map((c) => c.commercial_name)).toContain("Vélo'v");
  });

  it("is byte-identical for the same data (fixed entry dates and order), whatever the clock says", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(new Date("2025-02-08T16:44:06Z"));
      const first = Buffer.concat(await renderBundle(dataset));
      // A day later: an entry stamped with the current time would change the bytes.
      vi.setSystemTime(new Date("2025-02-09T09:13:58Z"));
      const again = Buffer.concat(await renderBundle(dataset));
      expect(again.equals(first)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
