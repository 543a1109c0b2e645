// Idle connections are closed after --idle-timeout. In a file of its own: within edges.test.ts,
// after the tests that open many sockets, its connection was sometimes never accepted (see report).
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./serve-helpers.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.handle.stop();
  server = undefined;
});

describe("idle connections", () => {
  it("closes a connection that stays idle past --idle-timeout", async () => {
    server = await startTestServer({ idleTimeout: 1 });
    const { hostname, port } = new URL(server.base);
    const socket = connect(Number(port), hostname);
    await new Promise((resolve) => socket.once("connect", resolve));
    const started = Date.now();
    await new Promise((resolve) => socket.once("close", resolve));
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
