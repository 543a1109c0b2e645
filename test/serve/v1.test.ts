// The legacy v1 API and the OpenAPI document through a real server: same keys, statuses and contracts as v3.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkedCount } from "./openapi-check.js";
import { startTestServer, type TestServer } from "./serve-helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  expect(await checkedCount(server.base)).toBeGreaterThan(10);
  await server.handle.stop();
});

describe("legacy v1", () => {
  it("answers 403 without a key, before anything else", async () => {
    for (const path of [
      "/vls/v1/stations?contract=toulouse",
      "/vls/v1/stations/55?contract=nowhere",
    ]) {
      const response = await fetch(`${server.base}${path}`);
      expect(response.status, path).toBe(403);
      expect(await response.json()).toEqual({ error: "Unauthorized" });
    }
  });

  it("answers contracts, all stations, a contract's stations and one station", async () => {
    expect(await (await server.get("/vls/v1/contracts")).json()).toEqual(
      await (await server.get("/vls/v3/contracts")).json(),
    );
    expect(await (await server.get("/vls/v1/stations")).json()).toHaveLength(413);
    const toulouse = (await (await server.get("/vls/v1/stations?contract=Toulouse")).json()) as {
      number: number;
    }[];
    expect(toulouse).toHaveLength(287);
    const station = (await (
      await server.get("/vls/v1/stations/55?contract=toulouse")
    ).json()) as object;
    expect(Object.keys(station)).toEqual([
      "number",
      "contract_name",
      "name",
      "address",
      "position",
      "banking",
      "bonus",
      "bike_stands",
      "available_bike_stands",
      "available_bikes",
      "status",
      "last_update",
    ]);
    expect(station).toMatchObject({
      number: 55,
      contract_name: "toulouse",
      last_update: 1608112351000,
    });
  });

  it("answers the path forms like the query forms", async () => {
    expect(await (await server.get("/vls/v1/stations/toulouse")).text()).toBe(
      await (await server.get("/vls/v1/stations?contract=toulouse")).text(),
    );
    expect(await (await server.get("/vls/v1/stations/toulouse/55")).text()).toBe(
      await (await server.get("/vls/v1/stations/55?contract=TOULOUSE")).text(),
    );
  });

  it("applies v3's status rules", async () => {
    const unknown = await server.get("/vls/v1/stations?contract=atlantis");
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ error: "Specified contract does not exist" });
    for (const path of [
      "/vls/v1/stations/9999?contract=toulouse",
      "/vls/v1/stations/55?contract=atlantis",
    ]) {
      const response = await server.get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).toBe("");
    }
    const noContract = await server.get("/vls/v1/stations/55");
    expect(noContract.status).toBe(400);
    expect(await noContract.json()).toEqual({
      error: "the contract parameter is required: /vls/v1/stations/55?contract=NAME",
    });
  });
});

describe("OpenAPI document", () => {
  it("is served without a key, naming the address the server listens on", async () => {
    const response = await fetch(`${server.base}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    const document = (await response.json()) as { openapi: string; servers: { url: string }[] };
    expect(document.openapi).toBe("3.1.0");
    expect(document.servers).toEqual([{ url: server.base }]);
  });
});
