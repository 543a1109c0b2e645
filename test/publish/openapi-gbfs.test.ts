// The OpenAPI document's GBFS operations: one per feed, each described by the feed's official schema,
// so that a client generated from the document types each feed, and a validator reading the document
// holds the feeds to the standard.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "../../src/publish/publish.js";
import { GBFS_STATIC_FEEDS } from "../../src/routes/gbfs-routes.js";
import { ROUTE_LIST } from "../../src/routes/routes.js";
import { ROOT } from "../helpers.js";
import { fixtureDataset, fixtureRelease, GENERATED_AT, json } from "./publish-helpers.js";

type Schema = Record<string, unknown>;
type Document = {
  paths: Record<string, { get: { responses: Record<string, { content?: Schema }> } }>;
  components: { schemas: Record<string, Schema> };
};

const documentOf = async () =>
  openApiDocument(await fixtureDataset(), {
    generatedAt: GENERATED_AT,
    baseUrl: "https://api.example.org",
  }) as Document;

/** The 200 body's schema of `path`, its `$ref` followed. */
function bodySchema(document: Document, path: string): Schema {
  const content = document.paths[path]?.get.responses["200"]?.content ?? {};
  const ref = (content["application/json"] as { schema: { $ref: string } }).schema.$ref;
  const name = ref.replace("#/components/schemas/", "");
  return document.components.schemas[name] as Schema;
}

/** The official file, as OpenAPI 3.1 reads it: no $schema or $id, 2020-12's dependentRequired. */
function official(version: string, feed: string): Schema {
  const file = join(ROOT, "src/model/gbfs-schemas", `v${version}`, `${feed}.json`);
  const text = readFileSync(file, "utf8").replaceAll('"dependencies":', '"dependentRequired":');
  const { $schema: _, $id: __, ...schema } = JSON.parse(text) as Schema;
  return schema;
}

const GBFS_ROUTES = ROUTE_LIST.filter((route) => route.gbfsVersion !== undefined);

describe("OpenAPI document, GBFS", () => {
  it("gives each GBFS feed an operation of its own, described by the feed's official schema", async () => {
    const document = await documentOf();
    const checked: string[] = [];
    for (const route of GBFS_ROUTES) {
      const feeds = route.path.includes("{feed}")
        ? GBFS_STATIC_FEEDS.map((feed) => [feed, route.path.replace("{feed}", feed)])
        : [[route.path.split("/").pop()?.replace(".json", "") as string, route.path]];
      for (const [feed, path] of feeds as [string, string][]) {
        const { externalDocs, ...schema } = bodySchema(document, path);
        expect(schema, path).toEqual(official(route.gbfsVersion as string, feed));
        expect(externalDocs, path).toEqual({
          description: `The official GBFS v${route.gbfsVersion} JSON schema of ${feed}.json, by MobilityData (CC BY 4.0)`,
          url: `https://github.com/MobilityData/gbfs-json-schema/blob/2e974fd51ae1db9c8006c97375d53e0b882cfedf/v${route.gbfsVersion}/${feed}.json`,
        });
        checked.push(path);
      }
    }
    // v2.3 at two forms (6 feeds each), v3.0 (6), the manifest.
    expect(checked).toHaveLength(19);
    expect(Object.keys(document.paths).filter((path) => path.includes("{feed}"))).toEqual([]);
    // Each says which feed it is, in its summary and its answer's description.
    const { get } = document.paths["/contracts/{contract}/gbfs/v3/vehicle_types.json"] as {
      get: { summary: string; responses: Record<string, { description: string }> };
    };
    expect([get.summary, get.responses["200"]?.description]).toEqual([
      "GBFS v3.0 vehicle_types of a contract",
      "GBFS v3.0 vehicle_types of a contract",
    ]);
    expect(JSON.stringify(document.paths)).not.toContain("{feed}");
  });

  it("holds the published feeds to it as a consumer's validator reads the document", async () => {
    const document = await documentOf();
    const release = await fixtureRelease();
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    for (const path of [
      "/contracts/{contract}/gbfs/v3/station_status.json",
      "/contracts/{contract}/gbfs/v3/system_information.json",
      "/contracts/{contract}/gbfs/station_information.json",
    ]) {
      const validate = ajv.compile(bodySchema(document, path));
      const feed = json(release, path.replace("{contract}", "dublin")) as {
        data: Record<string, unknown>;
      };
      expect(validate(feed), `${path}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      // Each feed's own fields are held, not only its header (a list, an id: neither a number).
      const [first] = Object.keys(feed.data);
      const broken = { ...feed, data: { ...feed.data, [first as string]: 42 } };
      expect(validate(broken), path).toBe(false);
    }
  });
});
