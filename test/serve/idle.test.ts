// Idle connections are closed after --idle-timeout. In a file of its own: within edges.test.ts,
// after the tests that open many sockets, its connection was sometimes never accepted (see report).
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { makeRelease, releaseFile } from "../../src/publish/release.js";
import type { Live } from "../../src/serve/live.js";
import { type RunningServer, startServer } from "../../src/serve/server.js";
import { startTestServer, type TestServer } from "./serve-helpers.js";

let server: TestServer | undefined;
let running: RunningServer | undefined;
afterEach(async () => {
  await server?.handle.stop();
  server = undefined;
  await running?.close();
  running = undefined;
});

async function connected(base: string): Promise<Socket> {
  const { hostname, port } = new URL(base);
  const socket = connect(Number(port), hostname);
  await new Promise((resolve) => socket.once("connect", resolve));
  return socket;
}

/** Resolves with one whole answer (headers and a Content-Length body) read from the socket. */
function oneAnswer(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    const onData = (data: Buffer) => {
      text += data.toString("latin1");
      const headerEnd = text.indexOf("\r\n\r\n");
      if (headerEnd < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(text.slice(0, headerEnd))?.[1] ?? 0);
      if (text.length < headerEnd + 4 + length) return;
      socket.off("data", onData);
      resolve(text);
    };
    socket.on("data", onData);
  });
}

describe("idle connections", () => {
  it("closes a connection that stays idle past --idle-timeout", async () => {
    server = await startTestServer({ idleTimeout: 1 });
    const socket = await connected(server.base);
    const started = Date.now();
    await new Promise((resolve) => socket.once("close", resolve));
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("closes a kept-alive connection whose client stops reading a big answer, past --idle-timeout", async () => {
    // 32 MiB the client stops reading: the server waits on back-pressure, mid-answer. Asked as the
    // second request of the connection, after Node's own keep-alive handling of the first.
    const chunk = Buffer.alloc(1 << 20, 0x20);
    const file = releaseFile(
      Array.from({ length: 32 }, () => chunk),
      "application/json",
      "static",
    );
    const live = {
      release: makeRelease(
        new Map([["/vls/v3/contracts", file]]),
        { contracts: 0, stations: 0, parkings: 0 },
        new Date(),
      ),
      refreshSeconds: 60,
      nextRefreshAt: null,
      lastRefresh: null,
    };
    // The server's log says when it let the connection go (the paused client cannot see it yet).
    let cut: (line: string) => void = () => {};
    const letGo = new Promise<string>((resolve) => (cut = resolve));
    running = await startServer({
      live: live as Live,
      keys: {
        idOf: () => "0de43ae5",
        revokedIdOf: () => null,
        limitOf: () => undefined,
        failingSince: () => null,
        activeCount: () => 1,
        close: () => {},
      },
      log: (line) => {
        if (line.includes("not delivered")) cut(line);
      },
      port: 0,
      host: "127.0.0.1",
      idleSeconds: 1,
    });
    const socket = await connected(running.url);
    const first = oneAnswer(socket);
    socket.write("GET /status HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(await first).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    let received = 0;
    const closed = new Promise((resolve) => socket.once("close", resolve));
    socket.on("data", (data: Buffer) => {
      received += data.length;
      socket.pause();
    });
    socket.write(
      "GET /vls/v3/contracts?apiKey=k HTTP/1.1\r\nHost: x\r\nAccept-Encoding: identity\r\n\r\n",
    );
    // Without the idle timeout, the answer would wait for this client forever.
    expect(await letGo).toMatch(/^GET \/vls\/v3\/contracts\?apiKey=<redacted> 200 not delivered/);
    socket.on("data", () => socket.resume());
    socket.resume();
    await closed;
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(file.size);
  });
});
