// The key check a front server asks (nginx auth_request): 204 for a valid key, the API's refusal otherwise.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEY_CHECK_PATH, KEY_ID_HEADER } from "../../src/routes/key-check.js";
import { rawGet, startTestServer, type TestServer } from "./serve-helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.handle.stop());

describe("the key check", () => {
  it("answers 204 with no body to a valid key, naming the key by its id for the front's log", async () => {
    const headers: Record<string, string | string[] | undefined> = {};
    const answer = await rawGet(server.base, `${KEY_CHECK_PATH}?apiKey=${server.key}`, headers);
    expect(answer).toEqual({ status: 204, body: "" });
    expect(headers[KEY_ID_HEADER.toLowerCase()]).toBe(server.keyId);
  });

  it("refuses a wrong or missing key as the API does", async () => {
    for (const query of ["?apiKey=nope", "", "?apiKey="]) {
      const headers: Record<string, string | string[] | undefined> = {};
      const answer = await rawGet(server.base, `${KEY_CHECK_PATH}${query}`, headers);
      expect(answer, query).toEqual({ status: 403, body: '{"error":"Unauthorized"}' });
      expect(headers["content-type"], query).toBe("application/json"); // the headers were read
      expect(headers[KEY_ID_HEADER.toLowerCase()], query).toBeUndefined();
    }
  });

  it("never logs the key it checked", async () => {
    await rawGet(server.base, `${KEY_CHECK_PATH}?apiKey=${server.key}`);
    await server.handle.stop();
    expect(server.lines.join("\n")).not.toContain(server.key);
    server = await startTestServer();
  });
});

describe("the key check under --max-key-failures", () => {
  const WRONG = "0".repeat(40);
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ maxKeyFailures: 2 });
  });
  afterAll(() => limited.handle.stop());

  /** A key check or an API request with a wrong key, from the client nginx would name. */
  const ask = (path: string, client: string, headers: Record<string, string> = {}) =>
    fetch(`${limited.base}${path}`, { headers: { "X-Forwarded-For": client, ...headers } });
  const check = (key: string, client: string, headers: Record<string, string> = {}) =>
    ask(`${KEY_CHECK_PATH}?apiKey=${key}`, client, headers);
  const station = (key: string) => `/vls/v3/stations/dublin/42?apiKey=${key}`;

  it("counts a wrong key against its client: past the limit, that client's next request is 429", async () => {
    const client = "203.0.113.1";
    const statuses = [];
    for (let n = 0; n < 3; n++) statuses.push((await check(WRONG, client)).status);
    // A check past the limit is refused 403 still: nginx's auth_request passes no 429 through.
    expect(statuses).toEqual([403, 403, 403]);
    const braked = await ask(station(WRONG), client);
    expect(braked.status).toBe(429);
    expect(Number(braked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await ask(station(WRONG), "203.0.113.2")).status).toBe(403); // another client
    expect((await ask(station(limited.key), client)).status).toBe(200); // a valid key
    const valid = await rawGet(limited.base, `${KEY_CHECK_PATH}?apiKey=${limited.key}`);
    expect(valid.status).toBe(204);
  });

  it("never counts a check with no key or an empty one: it guesses none", async () => {
    const client = "203.0.113.3";
    for (let n = 0; n < 3; n++) {
      expect((await ask(KEY_CHECK_PATH, client)).status).toBe(403);
      expect((await check("", client)).status).toBe(403);
    }
    expect((await ask(station(WRONG), client)).status).toBe(403);
  });

  it("spares the request handed on after a check that counted its wrong key one count, once", async () => {
    const client = "203.0.113.4";
    const statuses = [];
    // nginx's way: the check, then the request itself, both with the request's id.
    for (const ticket of ["a", "b", "c"]) {
      const handOver = { "X-Velodata-Request": ticket };
      statuses.push((await check(WRONG, client, handOver)).status);
      const answer = await ask(station(WRONG), client, handOver);
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([403, 403, 403, 403, 403, 429]);
    // Once: the same id again is counted.
    const again = await ask(station(WRONG), client, { "X-Velodata-Request": "c" });
    expect(again.status).toBe(429);
  });

  it("lets no request id of a client's own spare a count for another key or another client", async () => {
    const client = "203.0.113.5";
    const forged = { "X-Velodata-Request": "forged" };
    expect((await check(WRONG, client, forged)).status).toBe(403);
    // Another wrong key under the checked id: a new guess, counted.
    expect((await ask(station("1".repeat(40)), client, forged)).status).toBe(403);
    expect((await ask(station("2".repeat(40)), client, forged)).status).toBe(429);
    // The id of another client's counted check spares this one nothing.
    expect((await check(WRONG, "203.0.113.6", { "X-Velodata-Request": "theirs" })).status).toBe(
      403,
    );
    const other = "203.0.113.7";
    for (let n = 0; n < 2; n++) await ask(station(WRONG), other);
    expect((await ask(station(WRONG), other, { "X-Velodata-Request": "theirs" })).status).toBe(429);
  });
});
