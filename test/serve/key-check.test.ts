// The key check a front server asks (nginx auth_request): 204 for a valid key, the API's refusal otherwise.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEY_CHECK_PATH } from "../../src/routes/key-check.js";
import { rawGet, startTestServer, type TestServer } from "./serve-helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.handle.stop());

describe("the key check", () => {
  it("answers 204 with no body to a valid key", async () => {
    const answer = await rawGet(server.base, `${KEY_CHECK_PATH}?apiKey=${server.key}`);
    expect(answer).toEqual({ status: 204, body: "" });
  });

  it("refuses a wrong or missing key as the API does", async () => {
    for (const query of ["?apiKey=nope", "", "?apiKey="]) {
      const answer = await rawGet(server.base, `${KEY_CHECK_PATH}${query}`);
      expect(answer, query).toEqual({ status: 403, body: '{"error":"Unauthorized"}' });
    }
  });

  it("never logs the key it checked", async () => {
    await rawGet(server.base, `${KEY_CHECK_PATH}?apiKey=${server.key}`);
    await server.handle.stop();
    expect(server.lines.join("\n")).not.toContain(server.key);
    server = await startTestServer();
  });
});
