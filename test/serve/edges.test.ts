// Server edges: keys kept out of logs however spelled, absolute-form targets, bounded and idle
// connections, half-closed clients, a brake on wrong keys, and stopping.
import { writeFile } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { memoryOutput } from "../../src/commands/output.js";
import { serve } from "../../src/commands/serve.js";
import type { Severity } from "../../src/log.js";
import { makeRelease, releaseFile } from "../../src/publish/release.js";
import type { Live } from "../../src/serve/live.js";
import { type RunningServer, SLOW_HEAD_MS, startServer } from "../../src/serve/server.js";
import { fixtureCopy, tempDir } from "../helpers.js";
import { startTestServer, type TestServer } from "./serve-helpers.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.handle.stop();
  server = undefined;
});

function open(base: string): Promise<Socket> {
  const { hostname, port } = new URL(base);
  const socket = connect(Number(port), hostname);
  return new Promise((resolve, reject) => {
    socket.once("connect", () => resolve(socket));
    socket.once("error", reject);
  });
}

/**
 * A server whose /vls/v3/contracts is 64 MB: more than loopback buffers hold, so its answer is
 * still being sent while a client that reads nothing (or has gone) holds the connection.
 */
function serveBigAnswer(
  log: (line: string, severity?: Severity) => void,
  limits: { maxConnections?: number; clock?: () => number } = {},
): Promise<RunningServer> {
  const big = releaseFile([Buffer.alloc(64 * 2 ** 20, 32)], "application/json", "static");
  const release = makeRelease(
    new Map([["/vls/v3/contracts", big]]),
    { contracts: 0, stations: 0, parkings: 0 },
    new Date(),
  );
  const live = { release, refreshSeconds: 60, nextRefreshAt: null, lastRefresh: null };
  return startServer({
    live: live as Live,
    keys: {
      idOf: () => "0de43ae5",
      revokedIdOf: () => null,
      limitOf: () => undefined,
      failingSince: () => null,
      activeCount: () => 1,
      close: () => {},
    },
    log,
    ...limits,
    port: 0,
    host: "127.0.0.1",
  });
}

/** Sends raw bytes and collects everything until the server closes the connection. */
async function exchange(base: string, bytes: string, halfClose = false): Promise<string> {
  const socket = await open(base);
  let answer = "";
  socket.on("data", (chunk) => (answer += chunk));
  const closed = new Promise((resolve) => socket.once("close", resolve));
  if (halfClose) socket.end(bytes);
  else socket.write(bytes);
  await closed;
  return answer;
}

/** Sends one request on a kept-alive connection and resolves with the whole answer's head. */
function askOn(socket: Socket, target: string): Promise<string> {
  return new Promise((resolve) => {
    let answer = "";
    const onData = (chunk: Buffer) => {
      answer += chunk;
      const headEnd = answer.indexOf("\r\n\r\n");
      const length = Number(/content-length: (\d+)/i.exec(answer)?.[1] ?? Number.NaN);
      if (headEnd < 0 || Buffer.byteLength(answer) - headEnd - 4 < length) return;
      socket.off("data", onData);
      resolve(answer.slice(0, headEnd));
    };
    socket.on("data", onData);
    socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`);
  });
}

/** The line is written when the response closes, a moment after the client has its answer. */
const logLine = async (lines: string[], pattern: RegExp, waitMs = 2000): Promise<string> => {
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    const line = lines.find((candidate) => pattern.test(candidate));
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`no log line matches ${pattern}: ${lines.join("\n")}`);
};

describe("keys in logs", () => {
  it("answers however the key parameter is spelled, and never logs the key", async () => {
    server = await startTestServer();
    const { key, base, lines } = server;
    expect((await fetch(`${base}/vls/v3/contracts?api%4Bey=${key}`)).status).toBe(200);
    await fetch(`${base}/vls/v3/contracts?apiKey[]=${key}`);
    await fetch(`${base}/vls/v3/contracts?x=1;apiKey=${key}`);
    await fetch(`${base}/vls/v3/contracts?contract=${key}`);
    await logLine(lines, /contract=<redacted>/);
    const logged = lines.join("\n");
    expect(logged).toContain("GET /vls/v3/contracts?apiKey=<redacted> 200");
    expect(logged).toContain("GET /vls/v3/contracts?apiKey%5B%5D=<redacted> 403");
    expect(logged).toContain("GET /vls/v3/contracts?x=1%3BapiKey%3D<redacted> 403");
    expect(logged).not.toContain(key);
  });

  it("logs the query as parsed, re-encoded: no raw control character reaches the log", async () => {
    server = await startTestServer();
    await fetch(`${server.base}/vls/v3/stations?contract=%1b%5b2J%0a%e2%80%a8`);
    const line = await logLine(server.lines, /\/vls\/v3\/stations/);
    expect(line).toContain("GET /vls/v3/stations?contract=%1B%5B2J%0A%E2%80%A8 403");
  });
});

describe("request targets", () => {
  it("sends a folder's page asked without its slash to it, as static servers do", async () => {
    server = await startTestServer();
    const moved = await fetch(`${server.base}/docs?deepLink=1`, { redirect: "manual" });
    expect([moved.status, moved.headers.get("location")]).toEqual([301, "./docs/?deepLink=1"]);
    // Relative to what was asked: behind a proxy that takes a prefix off, the client stays under it.
    const location = moved.headers.get("location") ?? "";
    expect(new URL(location, "https://example.org/velo/docs?deepLink=1").href).toBe(
      "https://example.org/velo/docs/?deepLink=1",
    );
    expect((await fetch(`${server.base}/docs`)).url).toBe(`${server.base}/docs/`);
    expect((await fetch(`${server.base}/vls/v3`, { redirect: "manual" })).status).toBe(404);
  });

  it("accepts absolute-form targets (RFC 9112 §3.2.2)", async () => {
    server = await startTestServer();
    const { hostname, port } = new URL(server.base);
    const answer = await exchange(
      server.base,
      `GET http://${hostname}:${port}/vls/v3/contracts?apiKey=${server.key} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(answer).toContain('"commercial_name":"dublinbikes"');
  });

  it("answers a client that half-closes after its request, and logs it", async () => {
    server = await startTestServer();
    const answer = await exchange(
      server.base,
      `GET /vls/v3/stations?apiKey=${server.key} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: identity\r\n\r\n`,
      true,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(answer).toContain('"contractName":"besancon"');
    expect(await logLine(server.lines, /GET \/vls\/v3\/stations\?/)).toMatch(
      new RegExp(` 200 [\\d.]+ms key ${server.keyId}$`),
    );
  });

  it("logs an answer the client did not wait for", async () => {
    const lines: string[] = [];
    const running = await serveBigAnswer((line) => lines.push(line));
    try {
      const socket = await open(running.url);
      socket.write(
        "GET /vls/v3/contracts?apiKey=k HTTP/1.1\r\nHost: x\r\nAccept-Encoding: identity\r\n\r\n",
      );
      socket.once("data", () => socket.destroy());
      const line = await logLine(lines, /\/vls\/v3\/contracts/, 10_000);
      expect(line).toMatch(
        / 200 not delivered: the connection closed after [\d.]+ms key 0de43ae5$/,
      );
    } finally {
      await running.close();
    }
  });
});

describe("connections", () => {
  it("keeps answering with more idle connections open than its limit", async () => {
    server = await startTestServer({ maxConnections: 20 });
    const idle = await Promise.all(Array.from({ length: 60 }, () => open(server?.base as string)));
    const closed = idle.map((socket) => new Promise((resolve) => socket.once("close", resolve)));
    expect((await server.get("/vls/v3/contracts")).status).toBe(200);
    // The newcomers took the places of the longest idle: at least 40 of the 60 were let go.
    await Promise.all(closed.slice(0, 40));
    for (const socket of idle) socket.destroy();
  });

  it("counts a kept-alive connection whose answer went out as idle: a newcomer takes its place", async () => {
    server = await startTestServer({ maxConnections: 3 });
    const { base, key } = server;
    const kept = await Promise.all(Array.from({ length: 3 }, () => open(base)));
    const closed = kept.map((socket) => new Promise((resolve) => socket.once("close", resolve)));
    for (const socket of kept)
      expect(await askOn(socket, `/vls/v3/contracts?apiKey=${key}`)).toMatch(/^HTTP\/1.1 200 /);
    // All three are idle now, none closed yet: the fourth is answered in the place of the oldest.
    expect((await server.get("/vls/v3/contracts")).status).toBe(200);
    await closed[0];
    for (const socket of kept) socket.destroy();
  });

  it("counts a connection whose request has begun to come as busy: a newcomer never takes its place", async () => {
    server = await startTestServer({ maxConnections: 2 });
    const { base, key } = server;
    // Half a request: its head is not ended, so Node has parsed no request of it yet.
    const started = await open(base);
    const startedClosed = new Promise((resolve) => started.once("close", resolve));
    started.write(`GET /vls/v3/contracts?apiKey=${key} HTTP/1.1\r\nHost: x\r\n`);
    // Answered after the half request was sent, then idle: the one a newcomer may take.
    const kept = await open(base);
    const keptClosed = new Promise((resolve) => kept.once("close", resolve));
    expect(await askOn(kept, `/vls/v3/contracts?apiKey=${key}`)).toMatch(/^HTTP\/1.1 200 /);
    expect((await server.get("/vls/v3/contracts")).status).toBe(200);
    await keptClosed;
    // The half request, ended now, is answered on its own connection.
    const answer = new Promise<string>((resolve) =>
      started.once("data", (chunk) => resolve(`${chunk}`)),
    );
    started.write("\r\n");
    expect(await Promise.race([answer, startedClosed.then(() => "closed")])).toMatch(
      /^HTTP\/1.1 200 /,
    );
    started.destroy();
  });
});

describe("connections at the limit, all busy", () => {
  it("refuses a newcomer, and says so as a warning, at most once a minute", async () => {
    // Two clients that ask for the big answer and read none of it: both connections stay busy.
    const lines: [string, string | undefined][] = [];
    let logged = () => {};
    const log = (line: string, severity?: Severity) => {
      lines.push([line, severity]);
      logged();
    };
    const running = await serveBigAnswer(log, { maxConnections: 2 });
    const busy: Socket[] = [];
    try {
      for (let n = 0; n < 2; n++) {
        const socket = await open(running.url);
        socket.pause();
        socket.write("GET /vls/v3/contracts?apiKey=k HTTP/1.1\r\nHost: x\r\n\r\n");
        // Busy once the head has come: the server is writing a body nobody reads.
        await new Promise((resolve) => socket.once("readable", resolve));
        busy.push(socket);
      }
      const refusedLine = new Promise<void>((resolve) => (logged = resolve));
      const newcomers = await Promise.all([open(running.url), open(running.url)]);
      await Promise.all(newcomers.map((socket) => new Promise((r) => socket.once("close", r))));
      await refusedLine;
      expect(lines.filter(([line]) => line.startsWith("connections: "))).toEqual([
        [
          "connections: 1 new connection refused: all 2 open ones were busy (--max-connections)",
          "warning",
        ],
      ]);
    } finally {
      for (const socket of busy) socket.destroy();
      await running.close();
    }
  });

  it("closes the connection whose request head has been coming longest, past a second, for a newcomer (slow headers)", async () => {
    const lines: string[] = [];
    let now = 1000;
    const running = await serveBigAnswer((line) => lines.push(line), {
      maxConnections: 3,
      clock: () => now,
    });
    // The server's side of each connection, to wait until it has read what a client sent (the
    // same process: its reads take turns with this test's).
    const accepted: Socket[] = [];
    running.server.on("connection", (socket: Socket) => accepted.push(socket));
    /** Until the server has accepted its `index`th connection and read from it. */
    const readByServer = async (index: number) => {
      while (accepted.length <= index || (accepted[index] as Socket).bytesRead === 0)
        await new Promise((resolve) => setImmediate(resolve));
    };
    const clients: Socket[] = [];
    const closed = (socket: Socket) =>
      new Promise<true>((resolve) => socket.once("close", () => resolve(true)));
    const asked = (socket: Socket) =>
      new Promise<string>((resolve) => {
        socket.once("data", (chunk) => resolve(`${chunk}`));
        socket.once("close", () => resolve("closed"));
        socket.on("error", () => {}); // a refused connection: reset under the write
        socket.write("HEAD /vls/v3/contracts?apiKey=k HTTP/1.1\r\nHost: x\r\n\r\n");
      });
    /** A client that sends a head's first lines and never ends it. */
    const slowClient = async () => {
      const index = accepted.length;
      const socket = await open(running.url);
      clients.push(socket);
      socket.write("GET /vls/v3/contracts?apiKey=k HTTP/1.1\r\nHost: x\r\nX-A: b\r\n");
      await readByServer(index);
      return socket;
    };
    try {
      // A client busy with the big answer, which it does not read: never closed for a newcomer.
      const busy = await open(running.url);
      clients.push(busy);
      busy.pause();
      busy.write("GET /vls/v3/contracts?apiKey=k HTTP/1.1\r\nHost: x\r\n\r\n");
      await new Promise((resolve) => busy.once("readable", resolve));
      const first = await slowClient();
      const otherAt = accepted.length;
      const other = await slowClient();
      // Every place taken: the heads begun are seen at this newcomer, which is refused.
      expect(await asked(await open(running.url))).toBe("closed");
      // One of them goes; the next head comes in its place, and is seen half a second later.
      const left = closed(accepted[otherAt] as Socket);
      other.destroy();
      await left;
      const second = await slowClient();
      now += SLOW_HEAD_MS / 2;
      expect(await asked(await open(running.url))).toBe("closed");
      // A second after the first was seen: its place is taken, the second's is not yet.
      now += SLOW_HEAD_MS / 2;
      const [firstClosed, secondClosed] = [closed(first), closed(second)];
      const newcomer = await open(running.url);
      expect(await asked(newcomer)).toMatch(/^HTTP\/1.1 200 /);
      newcomer.destroy();
      expect(await firstClosed).toBe(true);
      expect(await Promise.race([secondClosed, Promise.resolve(false)])).toBe(false);
      expect(busy.destroyed).toBe(false);
      expect(lines).toContain(
        "connections: 1 connection closed for newcomers: all 3 open ones were busy, these with a request head still coming after 1 s (slow clients, or slow headers sent on purpose)",
      );
    } finally {
      for (const socket of clients) socket.destroy();
      await running.close();
    }
  });
});

describe("wrong keys", () => {
  it("answers 429 with Retry-After past --max-key-failures, and never to a valid key", async () => {
    server = await startTestServer({ maxKeyFailures: 3 });
    const wrong = `${server.base}/vls/v3/contracts?apiKey=${"0".repeat(40)}`;
    for (let n = 0; n < 3; n++) expect((await fetch(wrong)).status).toBe(403);
    const refused = await fetch(wrong);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect((await server.get("/vls/v3/contracts")).status).toBe(200);
  });

  it("has no limit unless asked", async () => {
    server = await startTestServer();
    const wrong = `${server.base}/vls/v3/contracts?apiKey=${"0".repeat(40)}`;
    for (let n = 0; n < 30; n++) expect((await fetch(wrong)).status).toBe(403);
  });
});

describe("stopping", () => {
  it("stops listening at once, even while a refresh runs", async () => {
    server = await startTestServer();
    const { handle } = server;
    const refreshing = handle.refreshNow();
    const stopping = handle.stop();
    expect(handle.server.listening).toBe(false);
    await expect(open(server.base)).rejects.toThrow(/ECONNREFUSED/);
    await refreshing;
    await stopping;
    server = undefined;
  });

  it("answers a request in flight to the end, then closes its connection", async () => {
    // 32 MiB that a paused client does not read: the server waits on back-pressure, mid-answer.
    const chunk = Buffer.alloc(1 << 20, 0x20);
    const body = Array.from({ length: 32 }, () => chunk);
    const file = releaseFile(body, "application/json", "static");
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
    const running = await startServer({
      live: live as Live,
      keys: {
        idOf: () => "0de43ae5",
        revokedIdOf: () => null,
        limitOf: () => undefined,
        failingSince: () => null,
        activeCount: () => 1,
        close: () => {},
      },
      log: () => {},
      port: 0,
      host: "127.0.0.1",
    });
    const socket = await open(running.url);
    const received: Buffer[] = [];
    const closed = new Promise((resolve) => socket.once("close", resolve));
    const started = new Promise((resolve) => socket.once("data", resolve));
    socket.on("data", (data: Buffer) => {
      received.push(data);
      socket.pause();
    });
    socket.write(
      "GET /vls/v3/contracts?apiKey=k HTTP/1.1\r\nHost: x\r\nAccept-Encoding: identity\r\n\r\n",
    );
    await started; // the headers and the first bytes are out: the request is in flight
    const stopped = running.close();
    expect(running.server.listening).toBe(false);
    await expect(open(running.url)).rejects.toThrow(/ECONNREFUSED/);
    socket.on("data", () => socket.resume());
    socket.resume();
    await closed;
    await stopped;
    const answer = Buffer.concat(received);
    expect(answer.subarray(0, 17).toString()).toBe("HTTP/1.1 200 OK\r\n");
    const headerEnd = answer.indexOf("\r\n\r\n") + 4;
    expect(answer.length - headerEnd).toBe(file.size);
  });
});

describe("keys file at start", () => {
  it("refuses to start when the keys file is invalid and no good set was ever loaded", async () => {
    const source = await fixtureCopy();
    const keys = join(source, "..", "keys.json");
    await writeFile(keys, "{ not json");
    await expect(
      serve({ source, keys, port: 0, refresh: 3600, output: memoryOutput() }),
    ).rejects.toThrow(`keys file ${keys} cannot be used, and no good set of keys was ever loaded`);
  });

  it("says so before it reads the source, which may take a minute (here, one not there at all)", async () => {
    const dir = await tempDir();
    const source = join(dir, "no source yet");
    const keys = join(dir, "keys.json");
    await writeFile(keys, "{ not json");
    await expect(
      serve({ source, keys, port: 0, refresh: 3600, output: memoryOutput() }),
    ).rejects.toThrow(`keys file ${keys} cannot be used`);
    const nowhere = join(dir, "missing", "keys.json");
    await expect(
      serve({ source, keys: nowhere, port: 0, refresh: 3600, output: memoryOutput() }),
    ).rejects.toThrow(`the folder of the keys file ${nowhere} does not exist`);
  });

  it("refuses to start when the keys file's folder does not exist", async () => {
    const source = await fixtureCopy();
    const keys = join(source, "..", "missing", "keys.json");
    await expect(
      serve({ source, keys, port: 0, refresh: 3600, output: memoryOutput() }),
    ).rejects.toThrow(`the folder of the keys file ${keys} does not exist`);
  });
});
