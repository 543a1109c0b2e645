// The API through a real server: statuses, bodies, key order, contracts without case.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { REFERENCE, ROOT } from "../helpers.js";
import { checkedCount } from "./openapi-check.js";
import { rawGet, startTestServer, type TestServer } from "./serve-helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  // Every answer above was checked against the OpenAPI document (see openapi-check.ts).
  expect(await checkedCount(server.base)).toBeGreaterThan(20);
  await server.handle.stop();
});

const realDublin = JSON.parse(
  readFileSync(join(REFERENCE, "v3_stations_dublin_2025-02-08.json"), "utf8"),
);

describe("keys", () => {
  it("answers 403 Unauthorized without a key, with an unknown key, and with an empty key", async () => {
    for (const query of ["", "?apiKey=0000000000000000000000000000000000000000", "?apiKey="]) {
      const response = await fetch(`${server.base}/vls/v3/contracts${query}`);
      expect(response.status, query).toBe(403);
      expect(await response.json()).toEqual({ error: "Unauthorized" });
    }
  });

  it("checks the key before what else is wrong with an API request, as for a well-formed one", async () => {
    const malformed = [
      "/vls/v3/stations/abc?contract=dublin",
      "/vls/v3/stations/42",
      "/vls/v1/stations?contract=",
      "/parking/v1/contracts/nantes/parks/abc",
    ];
    for (const path of malformed) {
      const response = await fetch(`${server.base}${path}`);
      expect(response.status, path).toBe(403);
      expect(await response.json()).toEqual({ error: "Unauthorized" });
    }
    // A path that is no API request at all stays a 400 whatever the key.
    expect((await fetch(`${server.base}/vls/v3/stations%2Fdublin`)).status).toBe(400);
  });

  it("asks no key for the static downloads and the status", async () => {
    const csv = await fetch(`${server.base}/rest/vls/stations/dublin.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const zip = await fetch(`${server.base}/download/velodata-static.zip`);
    expect(zip.headers.get("content-type")).toBe("application/zip");
    const status = (await (await fetch(`${server.base}/status`)).json()) as Record<string, unknown>;
    expect(status).toMatchObject({
      counts: { contracts: 5, stations: 413, parkings: 5 },
      refreshSeconds: 3600,
      lastRefresh: null,
    });
    // Published at the start of this suite, seconds ago.
    expect(status.release).toMatch(/^[0-9a-f]{16}$/);
    expect(Date.parse(status.generatedAt as string)).toBeGreaterThan(Date.now() - 60_000);
    expect(status.dataAgeSeconds).toBeLessThan(60);
    // The README's example shows every field, in the order the server writes them.
    expect(Object.keys(status)).toEqual(Object.keys(readmeStatusExample()));
  });

  it("never writes the key in a log line", async () => {
    await server.get("/vls/v3/contracts");
    await server.get("/vls/v3/nothing");
    // Lines are written in batches, a moment after the answers.
    await vi.waitFor(() => expect(server.lines.join("\n")).toContain("/vls/v3/nothing"));
    const logged = server.lines.join("\n");
    expect(logged).toContain("apiKey=<redacted>");
    expect(logged).not.toContain(server.key);
  });
});

describe("statuses of the specification", () => {
  it("answers a station with 200 and the real service's fields in its order", async () => {
    const response = await server.get("/vls/v3/stations/42?contract=dublin");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.text()).toBe(JSON.stringify(realDublin[0]));
  });

  it("answers 404 with no body for a station that does not exist", async () => {
    for (const path of [
      "/vls/v3/stations/9999?contract=dublin",
      "/vls/v3/stations/42?contract=atlantis",
    ]) {
      const response = await server.get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).toBe("");
    }
  });

  it("answers 400 for the stations of an unknown contract", async () => {
    const response = await server.get("/vls/v3/stations?contract=atlantis");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Specified contract does not exist" });
  });

  it("answers 400 for the parkings of an unknown contract or one without the parking API", async () => {
    const unknown = await server.get("/parking/v1/contracts/atlantis/parks");
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ error: "Specified contract does not exist" });
    const withoutApi = await server.get("/parking/v1/contracts/dublin/parks");
    expect(withoutApi.status).toBe(400);
    expect(await withoutApi.json()).toEqual({
      error: "Specified contract does not offer the parking API",
    });
  });

  it("answers 404 Resource Not Found for a parking that does not exist, and for unknown paths", async () => {
    for (const path of ["/parking/v1/contracts/nantes/parks/1", "/vls/v3/bikes"]) {
      const response = await server.get(path);
      expect(response.status, path).toBe(404);
      expect(await response.json()).toEqual({ error: "Resource Not Found" });
    }
  });

  it("answers a clear 400 for a malformed station number and for a station without its contract", async () => {
    const malformed = await server.get("/vls/v3/stations/4two?contract=dublin");
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: string }).error).toContain(
      "station number must be a whole number",
    );
    // A long one is quoted in part, as every message quotes a bad value.
    const long = await server.get(`/vls/v3/stations/${"9".repeat(2999)}x?contract=dublin`);
    expect(long.status).toBe(400);
    expect(((await long.json()) as { error: string }).error).toBe(
      `station number must be a whole number, got "${"9".repeat(60)}… (3000 characters)"`,
    );
    const noContract = await server.get("/vls/v3/stations/42");
    expect(noContract.status).toBe(400);
    expect(((await noContract.json()) as { error: string }).error).toContain(
      "the contract parameter is required",
    );
  });

  it("answers each operation's documented 400 example, word for word, to the request it shows", async () => {
    type Parameter = { name: string; in: string; schema: { example?: unknown } };
    type Operation = {
      parameters?: Parameter[];
      responses: Record<string, { content?: Record<string, { example?: { error: string } }> }>;
    };
    const document = (await (await fetch(`${server.base}/openapi.json`)).json()) as {
      paths: Record<string, { get: Operation }>;
    };
    const asked: string[] = [];
    for (const [path, { get }] of Object.entries(document.paths)) {
      const example = get.responses["400"]?.content?.["application/json"]?.example?.error;
      if (!example || example === "Specified contract does not exist") continue;
      // The request the example is of: a number mistyped (12b), or a dot segment after the path.
      const value = (parameter: Parameter) =>
        example.includes('"12b"') && parameter.name === "number"
          ? "12b"
          : String(parameter.schema.example);
      let target = path.replace(/\{(\w+)\}/g, (_, name: string) => {
        const parameter = get.parameters?.find((each) => each.name === name) as Parameter;
        return value(parameter);
      });
      if (example.includes("dot segments")) target = `${target.replace(/\/$/, "")}/..`;
      const query = new URLSearchParams({ apiKey: server.key });
      for (const parameter of get.parameters ?? [])
        if (parameter.in === "query" && parameter.name !== "apiKey")
          query.set(parameter.name, value(parameter));
      const answer = await rawGet(server.base, `${target}?${query}`);
      expect([answer.status, JSON.parse(answer.body)], `${target}?${query}`).toEqual([
        400,
        { error: example },
      ]);
      asked.push(target);
    }
    // Mistyped numbers (v3, v1, parking) and paths of every other kind.
    expect(asked.filter((target) => target.includes("12b")).length).toBeGreaterThanOrEqual(5);
    expect(asked.length).toBeGreaterThan(20);
  });

  it("lists contracts, all stations, a contract's stations and parkings", async () => {
    expect(await (await server.get("/vls/v3/contracts")).json()).toHaveLength(5);
    expect(await (await server.get("/vls/v3/stations")).json()).toHaveLength(413);
    expect(await (await server.get("/vls/v3/stations?contract=dublin")).text()).toBe(
      JSON.stringify(realDublin),
    );
    const parks = (await (await server.get("/parking/v1/contracts/nantes/parks")).json()) as {
      number: number;
    }[];
    expect(parks.map((park) => park.number)).toEqual([89, 12, 31]);
    const park = (await (
      await server.get("/parking/v1/contracts/nantes/parks/89")
    ).json()) as object;
    expect(Object.keys(park)).toEqual([
      "contractName",
      "name",
      "number",
      "status",
      "position",
      "accessType",
      "lockerType",
      "hasSurveillance",
      "isFree",
      "address",
      "zipCode",
      "city",
      "isOffStreet",
      "hasElectricSupport",
      "hasPhysicalReception",
    ]);
  });

  it("matches contract names without case, and answers with the contract's own spelling", async () => {
    const stations = await (await server.get("/vls/v3/stations?contract=Dublin")).json();
    expect(stations).toHaveLength(114);
    expect(
      (
        (await (await server.get("/vls/v3/stations/42?contract=DUBLIN")).json()) as {
          contractName: string;
        }
      ).contractName,
    ).toBe("dublin");
    expect((await server.get("/parking/v1/contracts/Nantes/parks/89")).status).toBe(200);
    expect((await fetch(`${server.base}/rest/vls/stations/Dublin.json`)).status).toBe(200);
  });

  it("answers the path forms like the query forms", async () => {
    const query = await (await server.get("/vls/v3/stations?contract=lyon")).text();
    expect(await (await server.get("/vls/v3/stations/lyon")).text()).toBe(query);
    expect(await (await server.get("/vls/v3/stations/lyon/123")).json()).toMatchObject({
      number: 123,
      overflow: true,
    });
  });
});

/** The `/status` document the README shows (its "Status" section's JSON block). */
function readmeStatusExample(): Record<string, unknown> {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("### Status (`/status`)"));
  const block = /```json\n([\s\S]*?)\n```/.exec(section);
  return JSON.parse(block?.[1] ?? "{}") as Record<string, unknown>;
}
