// The OpenAPI document: valid OpenAPI 3.1 (checked offline), derived from the route table, deterministic.
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { licenseGroups } from "../../src/publish/license-groups.js";
import { openApiDocument } from "../../src/publish/publish.js";
import { renderOpenApi } from "../../src/publish/render/openapi.js";
import { matchRoute } from "../../src/routes/match-route.js";
import { resolveContract } from "../../src/routes/resolve-contract.js";
import { type Endpoint, pathOf } from "../../src/routes/routes.js";
import {
  fixtureDataset,
  fixtureRelease,
  GENERATED_AT,
  json,
  MEANING_SENTENCE,
} from "./publish-helpers.js";

type Headers = Record<string, { description?: string; schema: { example: unknown } }>;
type Parameter = { name: string; in: string; required: boolean; schema: { example?: unknown } };
type Operation = {
  security: object[];
  parameters?: { name: string; in: string; required: boolean }[];
  responses: Record<
    string,
    { description?: string; content?: Record<string, { example?: unknown }>; headers?: Headers }
  >;
};
type Preflight = {
  security: object[];
  responses: Record<string, { headers?: Headers }>;
};
type Document = {
  info: { description: string };
  servers: { url: string }[];
  paths: Record<string, { get: Operation; options?: Preflight }>;
};

type JsonSchema = {
  $ref?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

/**
 * Every property under `schema` (nested objects, array items and alternatives included; a `$ref`
 * is its component's business) whose description does not say what it means, by its path.
 */
function undescribed(schema: JsonSchema, at: string): string[] {
  const properties = Object.entries(schema.properties ?? {}).flatMap(([name, property]) => [
    ...(MEANING_SENTENCE.test(property.description ?? "") ? [] : [`${at}.${name}`]),
    ...undescribed(property, `${at}.${name}`),
  ]);
  const alternatives = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  return [
    ...properties,
    ...(schema.items ? undescribed(schema.items, `${at}[]`) : []),
    ...alternatives.flatMap((alternative) => undescribed(alternative, at)),
  ];
}

const documentOf = async (baseUrl = "https://api.example.org") =>
  openApiDocument(await fixtureDataset(), { generatedAt: GENERATED_AT, baseUrl }) as Document;

describe("OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(await documentOf());
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("says what each field of its own answers means: every property but those of GBFS's official schemas", async () => {
    const { components, paths } = (await documentOf()) as Document & {
      components: { schemas: Record<string, JsonSchema> };
    };
    // GBFS's are MobilityData's schemas, shipped as they are.
    const own = Object.entries(components.schemas).filter(([name]) => !name.startsWith("Gbfs"));
    expect(own.map(([name]) => name)).toEqual(
      expect.arrayContaining(["StationV3", "StationV1", "Contract", "ContractV1", "Parking"]),
    );
    // Bodies described in place rather than as a component (a contract's static stations).
    const inPlace = Object.entries(paths).flatMap(([path, item]) =>
      Object.values(item.get.responses).flatMap((response) =>
        Object.values(response.content ?? {}).map(
          (media) => [path, (media as { schema: JsonSchema }).schema] as const,
        ),
      ),
    );
    expect(inPlace.filter(([, schema]) => !schema.$ref && schema.items?.properties)).not.toEqual(
      [],
    );
    expect([...own, ...inPlace].flatMap(([name, schema]) => undescribed(schema, name))).toEqual([]);
  });

  it("names each operation once, in camelCase, as generated clients name their methods", async () => {
    const { paths } = await documentOf();
    const ids = Object.values(paths).flatMap((item) =>
      Object.values(item).map(
        (operation) => (operation as unknown as { operationId: string }).operationId,
      ),
    );
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]+(?:[A-Z0-9][a-z0-9]*)*$/);
    expect(ids).toContain("stationsOrContractStationsByQuery");
  });

  it("keeps the API's operationIds, which generated clients name their methods after: a rename breaks their code", async () => {
    const { paths } = await documentOf();
    const api = Object.values(paths)
      .map((item) => item.get as Operation & { operationId: string; tags: string[] })
      .filter((operation) => ["v3", "v1", "parking"].includes(operation.tags[0] as string))
      .map((operation) => operation.operationId);
    expect(api).toEqual([
      "contracts",
      "stationsOrContractStationsByQuery",
      "station",
      "stationByQuery",
      "contractsV1",
      "stationsV1OrContractStationsV1ByQuery",
      "stationV1",
      "stationV1ByQuery",
      "parks",
      "park",
    ]);
  });

  it("gives examples its own schemas hold valid: each parameter's, body's and header's", async () => {
    const document = (await documentOf()) as Document & { components: object };
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: "openapi", components: document.components });
    const invalid: string[] = [];
    let checked = 0;
    const compiled = new Map<string, ValidateFunction>();
    const check = (where: string, schema: object | undefined, example: unknown) => {
      if (schema === undefined || example === undefined) return;
      const refs = JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/');
      const validate = compiled.get(refs) ?? ajv.compile(JSON.parse(refs));
      compiled.set(refs, validate);
      checked++;
      if (!validate(example)) invalid.push(`${where}: ${ajv.errorsText(validate.errors)}`);
    };
    type Described = { schema?: { example?: unknown }; example?: unknown };
    for (const [path, item] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(item) as [string, Operation][]) {
        for (const parameter of (operation.parameters ?? []) as Parameter[])
          check(`${method} ${path} ${parameter.name}`, parameter.schema, parameter.schema.example);
        for (const [status, response] of Object.entries(operation.responses)) {
          for (const [type, media] of Object.entries(response.content ?? {}) as [
            string,
            Described,
          ][])
            check(`${method} ${path} ${status} ${type}`, media.schema, media.example);
          for (const [name, header] of Object.entries(response.headers ?? {}))
            check(`${method} ${path} ${status} ${name}`, header.schema, header.schema.example);
        }
      }
    expect(invalid).toEqual([]);
    expect(checked).toBeGreaterThan(1000);
  });

  it("declares int64 the integers that pass 2^31, which a generated client would type as a 32-bit int otherwise", async () => {
    const { components } = (await documentOf()) as unknown as {
      components: { schemas: Record<string, JsonSchema & { properties: Record<string, object> }> };
    };
    const { StationV1, ServerStatus } = components.schemas;
    // Milliseconds since 1970: 1608112351000 in the real Toulouse answer.
    expect(StationV1?.properties.last_update).toMatchObject({ format: "int64" });
    const memory = (ServerStatus?.properties.memory as JsonSchema | undefined)?.properties ?? {};
    for (const name of ["rssBytes", "heapUsedBytes", "heapLimitBytes"])
      expect(memory[name], name).toMatchObject({ format: "int64" });
  });

  it("names no schema after a JavaScript global: a generated client's type of it would hide the global (Error)", async () => {
    const { components } = (await documentOf()) as unknown as {
      components: { schemas: Record<string, unknown> };
    };
    const names = Object.keys(components.schemas);
    expect(names).toContain("ErrorBody");
    expect(names.filter((name) => name in globalThis)).toEqual([]);
  });

  it("declares every time of its answers (GBFS's aside) as a date-time, for clients that read them as dates", async () => {
    const { components } = (await documentOf()) as unknown as {
      components: { schemas: Record<string, unknown> };
    };
    const times: string[] = [];
    const walk = (schema: unknown, path: string): void => {
      if (typeof schema !== "object" || schema === null) return;
      const { properties } = schema as { properties?: Record<string, unknown> };
      for (const [name, property] of Object.entries(properties ?? {})) {
        const text = JSON.stringify(property);
        if (/(At|Since|^lastUpdate|^newestLastUpdate)$/.test(name) && text.includes('"string"'))
          times.push(`${path}.${name} ${text.includes('"date-time"') ? "date-time" : "string"}`);
        walk(property, `${path}.${name}`);
      }
      // Through anyOf, items…: the properties were walked above, each with its name.
      for (const [key, each] of Object.entries(schema)) if (key !== "properties") walk(each, path);
    };
    for (const [name, schema] of Object.entries(components.schemas))
      if (!name.startsWith("Gbfs")) walk(schema, name);
    expect(times.length).toBeGreaterThan(5);
    expect(times.filter((time) => !time.endsWith(" date-time"))).toEqual([]);
  });

  it("is served in the release and the tree at /openapi.json, the same bytes every time", async () => {
    const first = await fixtureRelease();
    const second = await fixtureRelease();
    expect(first.files.get("/openapi.json")?.etag).toBe(second.files.get("/openapi.json")?.etag);
    expect((json(first, "/openapi.json") as Document).servers).toEqual([
      { url: "http://127.0.0.1:8080" },
    ]);
  });

  it("names the configured base URL as its server", async () => {
    expect((await documentOf("https://bikes.example.net/api")).servers).toEqual([
      { url: "https://bikes.example.net/api" },
    ]);
  });

  it("gives every parameter an example of the data: each operation's example request answers 200", async () => {
    const { paths } = await documentOf();
    const release = await fixtureRelease();
    const contracts = new Map(
      [...release.contracts.values()].map((contract) => [contract.name.toLowerCase(), contract]),
    );
    let asked = 0;
    for (const [path, item] of Object.entries(paths)) {
      const parameters = (item.get.parameters ?? []) as Parameter[];
      if (!parameters.some((parameter) => parameter.required)) continue;
      for (const parameter of parameters) expect(parameter.schema.example, path).toBeDefined();
      const value = (name: string) =>
        String(parameters.find((parameter) => parameter.name === name)?.schema.example);
      const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => value(name));
      const query = new URLSearchParams(
        parameters
          .filter((parameter) => parameter.in === "query" && parameter.required)
          .map((parameter) => [parameter.name, value(parameter.name)]),
      );
      const match = matchRoute(filled.split("/").slice(1), query);
      expect(match.kind, `${filled}?${query}`).toBe("endpoint");
      const resolved = resolveContract(contracts, (match as { endpoint: Endpoint }).endpoint);
      expect(resolved, `${filled}?${query}`).toHaveProperty("endpoint");
      const { endpoint } = resolved as { endpoint: Endpoint };
      expect(release.files.has(pathOf(endpoint)), `${filled}?${query}`).toBe(true);
      asked++;
    }
    expect(asked).toBeGreaterThan(10);
  });

  it("is titled with the service's name from portal.json, velodata by default", async () => {
    const dataset = await fixtureDataset();
    const titleOf = (portal?: object) =>
      (
        openApiDocument({ ...dataset, portal } as never, { generatedAt: GENERATED_AT }) as {
          info: { title: string };
        }
      ).info.title;
    expect(titleOf({ serviceName: "Open Bikes", keys: {} })).toBe("Open Bikes");
    expect(titleOf()).toBe("velodata");
  });

  it("names where to ask for a key as its contact: portal.json's page, or its e-mail address", async () => {
    const dataset = await fixtureDataset();
    type Described = {
      info: { contact?: object };
      components: { securitySchemes: { apiKey: { description: string } } };
    };
    const described = (keys: object) =>
      openApiDocument({ ...dataset, portal: { serviceName: "Open Bikes", keys } } as never, {
        generatedAt: GENERATED_AT,
      }) as Described;
    const contactOf = (keys: object) => described(keys).info.contact;
    const schemeOf = (keys: object) => described(keys).components.securitySchemes.apiKey;
    // Named for what it is for: consoles show "NAME - Website".
    expect(contactOf({ text: "Ask us.", url: "https://bikes.example.org/keys" })).toEqual({
      name: "Open Bikes: API keys",
      url: "https://bikes.example.org/keys",
    });
    expect(contactOf({ text: "Write to us.", url: "mailto:open%2Ddata@example.org" })).toEqual({
      name: "Open Bikes: API keys",
      email: "open-data@example.org",
    });
    expect(contactOf({ text: "Ask the operator." })).toBeUndefined();
    // The key's own description says where to ask too, as a generated client's docs show it.
    expect(schemeOf({ text: "Ask us.", url: "https://bikes.example.org/keys" }).description).toBe(
      "The API key (40 hex characters): ask for one at https://bikes.example.org/keys.",
    );
    expect(schemeOf({ url: "mailto:open%2Ddata@example.org" }).description).toBe(
      "The API key (40 hex characters): ask for one by writing to open-data@example.org.",
    );
    expect(schemeOf({ text: "Ask the operator." }).description).toBe(
      "The API key (40 hex characters): the operator of this API gives them out.",
    );
    // The document stays valid OpenAPI with either.
    const document = openApiDocument(
      {
        ...dataset,
        portal: { serviceName: "Open Bikes", keys: { text: "x", url: "mailto:a@example.org" } },
      } as never,
      { generatedAt: GENERATED_AT },
    );
    expect((await new Validator().validate(document as never)).valid).toBe(true);
  });

  it("shows a station as the API sends an open one: reported, every stand of it counted", async () => {
    const { paths } = await documentOf();
    const v3 = paths["/vls/v3/stations/{number}"]?.get.responses["200"]?.content?.[
      "application/json"
    ]?.example as { status: string; connected: boolean; lastUpdate: string | null };
    // null is "never reported", which the API says only of a CLOSED, disconnected station.
    expect([v3.status, v3.connected]).toEqual(["OPEN", true]);
    expect(v3.lastUpdate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const v1 = paths["/vls/v1/stations/{number}"]?.get.responses["200"]?.content?.[
      "application/json"
    ]?.example as { status: string; last_update: number | null };
    expect([v1.status, v1.last_update]).toEqual(["OPEN", Date.parse(v3.lastUpdate as string)]);
  });

  it("asks the apiKey on keyed routes only, and marks public routes with no security", async () => {
    const { paths } = await documentOf();
    expect(paths["/vls/v1/stations/{number}"]?.get.security).toEqual([{ apiKey: [] }]);
    expect(paths["/download/velodata-static.zip"]?.get.security).toEqual([]);
    expect(paths["/openapi.json"]?.get.security).toEqual([]);
    expect(Object.keys(paths["/download/velodata-static.zip"]?.get.responses ?? {})).not.toContain(
      "403",
    );
  });

  it("gives each status its body or none, as the route answers it", async () => {
    const { paths } = await documentOf();
    const station = paths["/vls/v3/stations/{number}"]?.get;
    expect(station?.responses["404"]?.content).toBeUndefined();
    expect(station?.parameters).toContainEqual(
      expect.objectContaining({ name: "contract", in: "query", required: true }),
    );
    const parks = paths["/parking/v1/contracts/{contract}/parks"]?.get;
    expect(parks?.responses["400"]?.content?.["application/json"]?.example).toEqual({
      error: "Specified contract does not exist",
    });
    // All stations and the stations of a contract share a path: its contract is optional.
    expect(paths["/vls/v3/stations"]?.get.parameters).toContainEqual(
      expect.objectContaining({ name: "contract", required: false }),
    );
  });

  it("declares the preflight (OPTIONS, 204, no key) on every path, and 405 for other methods", async () => {
    const { info, paths } = await documentOf();
    expect(Object.keys(paths).length).toBeGreaterThan(20);
    for (const [path, item] of Object.entries(paths)) {
      expect(item.options?.security, path).toEqual([]);
      const headers = item.options?.responses["204"]?.headers;
      expect(headers?.Allow?.schema.example, path).toBe("GET, HEAD, OPTIONS");
      expect(headers?.["Access-Control-Max-Age"]?.schema.example, path).toBe(86400);
    }
    expect(info.description).toContain("405 with `Allow: GET, HEAD, OPTIONS`");
  });

  it("gives every operation, preflights too, a summary and a description, as linters and documentation pages ask", async () => {
    const { paths } = await documentOf();
    for (const [path, item] of Object.entries(paths))
      for (const [method, operation] of Object.entries(item)) {
        const { summary, description } = operation as { summary?: string; description?: string };
        expect([method, path, (summary ?? "") !== "", (description ?? "") !== ""]).toEqual([
          method,
          path,
          true,
          true,
        ]);
      }
  });

  it("lists the data's groups first, the portal's pages and the preflights last, and tells how to get a key", async () => {
    const document = (await documentOf()) as Document & {
      tags: { name: string; description?: string }[];
      components: { securitySchemes: { apiKey: { description: string } } };
    };
    const names = document.tags.map((tag) => tag.name);
    // Swagger UI shows its sections in this order: the data's surfaces before the pages for people.
    expect(names).toEqual([
      "v3",
      "v1",
      "parking",
      "gbfs",
      "downloads",
      "meta",
      "portal",
      "CORS preflight",
    ]);
    // Each group says what it holds: documentation pages show it as the section's introduction.
    for (const tag of document.tags) expect(tag.description, tag.name).toMatch(/^\S.{30,}\.$/);
    expect(document.tags.find((tag) => tag.name === "v1")?.description).toContain("legacy");
    // Every operation's group is listed: none is left to first appearance.
    const used = Object.values(document.paths).flatMap((item) =>
      Object.values(item).flatMap((operation) => (operation as { tags?: string[] }).tags ?? []),
    );
    expect(new Set(used)).toEqual(new Set(names));
    expect(document.components.securitySchemes.apiKey.description).not.toContain("velodata keys");
  });

  it("gives the data's licence as the API's: one all contracts state, or lists each contract's", async () => {
    const infoOf = (licenses: ({ id?: string; url?: string } | undefined)[]) => {
      const contracts = licenses.map((license, at) => ({ name: `c${at}`, license }));
      const { info } = renderOpenApi({
        baseUrl: "https://api.example.org",
        examples: {},
        licenses: licenseGroups(contracts),
      }) as { info: { license?: object; description: string } };
      return info;
    };
    const licenseOf = (licenses: ({ id?: string; url?: string } | undefined)[]) =>
      infoOf(licenses).license;
    const odbl = { id: "ODbL-1.0", url: "https://opendatacommons.org/licenses/odbl/1-0/" };
    // OpenAPI takes an SPDX identifier or a URL, not both: the identifier names it exactly.
    expect(licenseOf([odbl, odbl])).toEqual({ name: "ODbL-1.0", identifier: "ODbL-1.0" });
    expect(infoOf([odbl, odbl]).description).not.toContain("differs by contract");
    // One licence, whether or not each contract states its URL beside its id.
    expect(infoOf([{ id: "ODbL-1.0" }, odbl]).description).not.toContain("differs by contract");
    expect(licenseOf([{ id: "ODbL-1.0" }, odbl])).toEqual(licenseOf([odbl, odbl]));
    expect(licenseOf([{ url: "https://example.org/terms" }])).toEqual({
      name: "The data's licence",
      url: "https://example.org/terms",
    });
    // Licences that differ: the description lists each with its contracts, the licence says so.
    const mixed = infoOf([odbl, { id: "CC-BY-4.0" }, odbl, undefined]);
    // Its URL the portal's list of contracts, which gives each one's licence.
    expect(mixed.license).toEqual({
      name: "Differs by contract: see the list in the description",
      url: "https://api.example.org/#contracts",
    });
    expect(mixed.description).toContain(
      [
        "differs by contract (each contract's GBFS system_information gives it too, as `license_id` and `license_url`):",
        "",
        "- [ODbL-1.0](https://opendatacommons.org/licenses/odbl/1-0/): `c0`, `c2`",
        "- CC-BY-4.0: `c1`",
        "- not stated: `c3`",
      ].join("\n"),
    );
    // No contract states one (`{}` in a source reads as none).
    expect(licenseOf([undefined, undefined])).toBeUndefined();
    // The fixtures' contracts state different licences.
    expect(
      ((await documentOf()) as { info: { license?: { name: string } } }).info.license?.name,
    ).toBe("Differs by contract: see the list in the description");
  });

  it("says what Retry-After counts down to on a 429: the wrong-key window or the key's minute", async () => {
    const { paths } = await documentOf();
    const refused = paths["/vls/v3/contracts"]?.get.responses["429"];
    expect(refused?.description).toContain("this key's requests of the minute are used up");
    expect(refused?.headers?.["Retry-After"]?.description).toBe(
      "seconds until this address's keys are checked again, or until this key's next minute, or seconds before asking again, once fewer requests are in progress",
    );
  });

  it("declares nginx's 429 and its Retry-After on every path: one address's requests past its limit at once", async () => {
    const { paths } = await documentOf();
    for (const [path, item] of Object.entries(paths)) {
      const crowded = item.get.responses["429"];
      expect(crowded?.description, path).toContain("more requests in progress from this address");
      expect(crowded?.headers?.["Retry-After"], path).toBeDefined();
    }
    // A public answer has no key to be limited: its 429 waits nginx's second.
    expect(
      paths["/openapi.json"]?.get.responses["429"]?.headers?.["Retry-After"]?.schema.example,
    ).toBe(1);
  });

  it("declares nginx's 503 and its Retry-After on every path: velodata serve behind it restarting", async () => {
    const { paths } = await documentOf();
    for (const [path, item] of Object.entries(paths)) {
      const unavailable = item.get.responses["503"];
      expect(unavailable?.headers?.["Retry-After"]?.schema.example, path).toBe(5);
      expect(unavailable?.description, path).toContain("velodata serve");
    }
    // /status's own 503 (its document, ok false) is kept beside nginx's error.
    const status = paths["/status"]?.get.responses["503"];
    expect(status?.description).toMatch(
      /^The same document when `ok` is false.*; or through nginx/,
    );
    expect(status?.content?.["application/json"]).toMatchObject({
      schema: {
        anyOf: [
          { $ref: "#/components/schemas/ServerStatus" },
          { $ref: "#/components/schemas/ErrorBody" },
        ],
      },
    });
  });

  it("declares the headers clients rely on: ETag and Cache-Control, Retry-After on 429; 400, 414 and 431 on every path, 412 beside 304", async () => {
    const { paths } = await documentOf();
    const station = paths["/vls/v3/stations/{contract}/{number}"]?.get;
    expect(station?.responses["200"]?.headers?.["Cache-Control"]?.schema.example).toBe(
      "private, max-age=42",
    );
    expect(station?.responses["200"]?.headers?.ETag).toBeDefined();
    const contracts = paths["/vls/v3/contracts"]?.get;
    expect(contracts?.responses["200"]?.headers?.["Cache-Control"]?.schema.example).toBe(
      "private, max-age=3600",
    );
    // Answers without a key may be kept by any cache.
    const feed = paths["/contracts/{contract}/gbfs/v3/station_status.json"]?.get;
    expect(feed?.responses["200"]?.headers?.["Cache-Control"]?.schema.example).toBe(
      "public, max-age=42",
    );
    // A GBFS feed of the static source is kept no longer than the station_status it goes with.
    const information = paths["/contracts/{contract}/gbfs/v3/station_information.json"]?.get;
    expect(information?.responses["200"]?.headers?.["Cache-Control"]).toMatchObject({
      description: expect.stringContaining("as the station_status it goes with"),
      schema: { example: "public, max-age=42" },
    });
    expect(
      paths["/openapi.json"]?.get.responses["200"]?.headers?.["Cache-Control"]?.schema.example,
    ).toBe("public, max-age=3600");
    expect(contracts?.responses["429"]?.headers?.["Retry-After"]).toBeDefined();
    expect(paths["/status"]?.get.responses["200"]?.headers?.ETag).toBeUndefined();
    for (const [path, item] of Object.entries(paths))
      expect(Object.keys(item.get.responses), path).toEqual(
        expect.arrayContaining(["400", "414", "431"]),
      );
    expect(Object.keys(station?.responses ?? {})).toEqual(expect.arrayContaining(["304", "412"]));
    // Every answer may be read by a page of any origin; text varies with Accept-Encoding, a zip not.
    for (const [path, item] of Object.entries(paths))
      for (const [status, response] of Object.entries(item.get.responses))
        expect(
          response.headers?.["Access-Control-Allow-Origin"]?.schema.example,
          `${path} ${status}`,
        ).toBe("*");
    expect(station?.responses["200"]?.headers?.Vary?.schema.example).toBe("Accept-Encoding");
    expect(station?.responses["304"]?.headers?.Vary?.schema.example).toBe("Accept-Encoding");
    expect(station?.responses["304"]?.headers?.ETag).toBeDefined();
    const bundle = paths["/download/velodata-static.zip"]?.get;
    expect(bundle?.responses["200"]?.headers?.Vary).toBeUndefined();
    // A preflight is a request too: one a server cannot read, or too long, is refused as any.
    for (const [path, item] of Object.entries(paths))
      expect(Object.keys(item.options?.responses ?? {}), path).toEqual([
        "204",
        "400",
        "414",
        "431",
      ]);
  });

  it("declares the no-store every error and /status are sent with, so that a client's cache keeps none of them", async () => {
    const { paths } = await documentOf();
    const cacheControl = (response: { headers?: Headers } | undefined) =>
      response?.headers?.["Cache-Control"]?.schema.example;
    for (const [path, item] of Object.entries(paths)) {
      for (const [status, response] of Object.entries(item.get.responses))
        if (Number(status) >= 400)
          expect(cacheControl(response), `${path} ${status}`).toBe("no-store");
      for (const status of ["400", "414", "431"])
        expect(cacheControl(item.options?.responses[status]), `OPTIONS ${path} ${status}`).toBe(
          "no-store",
        );
    }
    const status = paths["/status"]?.get.responses;
    expect([cacheControl(status?.["200"]), cacheControl(status?.["503"])]).toEqual([
      "no-store",
      "no-store",
    ]);
    // The answers of the data keep their own lifetime.
    expect(cacheControl(paths["/vls/v1/contracts"]?.get.responses["200"])).toBe(
      "private, max-age=3600",
    );
  });

  it("types a JSON answer as its JSON for a generated client: no 2xx beside its 200 with a body of another kind", async () => {
    // openapi-fetch and @hey-api/openapi-ts type an answer as all its 2xx bodies in one.
    const { info, paths } = await documentOf();
    for (const [path, item] of Object.entries(paths)) {
      const { "200": whole, ...others } = item.get.responses;
      const types = Object.keys(whole?.content ?? {});
      if (!types.includes("application/json")) continue;
      for (const [status, response] of Object.entries(others))
        if (status.startsWith("2")) expect(response.content, `${path} ${status}`).toBeUndefined();
    }
    // The Range it takes all the same is said where a client reads it, and in the description.
    const stations = paths["/vls/v3/stations"]?.get.responses["200"]?.headers?.["Accept-Ranges"];
    expect(stations?.description).toContain("answered 206");
    expect(info.description).toContain("206 with `Content-Range`");
    // A download's 206 is bytes, as its 200: listed.
    const bundle = paths["/download/velodata-static.zip"]?.get.responses["206"];
    expect(Object.keys(bundle?.content ?? {})).toEqual(["application/zip", "multipart/byteranges"]);
  });

  it("declares the bundle's Content-Disposition, and no other answer's", async () => {
    const { paths } = await documentOf();
    const declared = Object.entries(paths).filter(
      ([, item]) => item.get?.responses["200"]?.headers?.["Content-Disposition"],
    );
    expect(
      declared.map(([path, item]) => [
        path,
        item.get?.responses["200"]?.headers?.["Content-Disposition"]?.schema.example,
      ]),
    ).toEqual([["/download/velodata-static.zip", 'attachment; filename="velodata-static.zip"']]);
  });

  it("takes its examples from the published data", async () => {
    const { paths } = await documentOf();
    const example = paths["/vls/v3/stations/{contract}/{number}"]?.get.responses["200"]?.content?.[
      "application/json"
    ]?.example as { number: number; contractName: string };
    expect(example).toMatchObject({ number: 42, contractName: "dublin" });
  });
});
