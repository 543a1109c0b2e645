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
