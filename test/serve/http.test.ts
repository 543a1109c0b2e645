// HTTP done right: validators, encodings, methods, CORS, hostile paths, internal errors.
import { connect } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRelease, releaseFile } from "../../src/publish/release.js";
import type { Live } from "../../src/serve/live.js";
import { startServer } from "../../src/serve/server.js";
import { rawGet, startTestServer, type TestServer } from "./serve-helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.handle.stop());

describe("validators and encodings", () => {
  it("sends an ETag and answers 304 with no body to a matching If-None-Match", async () => {
    const first = await server.get("/vls/v3/stations?contract=dublin");
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await server.get("/vls/v3/stations?contract=dublin", {
      headers: { "If-None-Match": etag as string },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    const other = await server.get("/vls/v3/stations?contract=lyon", {
      headers: { "If-None-Match": etag as string },
    });
    expect(other.status).toBe(200);
  });

  it("answers 304 with the tag the client holds, though it now accepts another encoding", async () => {
    const path = "/vls/v3/stations?contract=dublin";
    const plain = await server.get(path, { headers: { "Accept-Encoding": "identity" } });
    const held = plain.headers.get("etag") as string;
    const gzip = await server.get(path, {
      headers: { "Accept-Encoding": "gzip", "If-None-Match": held },
    });
    // A cache updates the response it stored under the 304's tag (RFC 9111 §4.3.4).
    expect([gzip.status, gzip.headers.get("etag")]).toEqual([304, held]);
    expect(gzip.headers.get("content-encoding")).toBeNull();
  });

  it("chooses brotli or gzip from Accept-Encoding, with bytes that decode to the plain answer", async () => {
    const plain = Buffer.from(
      await (
        await server.get("/vls/v3/stations", { headers: { "Accept-Encoding": "identity" } })
      ).arrayBuffer(),
    );
    const raw = async (acceptEncoding: string) => {
      const response = await rawFetch(`/vls/v3/stations?apiKey=${server.key}`, {
        "accept-encoding": acceptEncoding,
      });
      return response;
    };
    const br = await raw("gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toBe("Accept-Encoding");
    expect(brotliDecompressSync(br.body).equals(plain)).toBe(true);
    const gzip = await raw("gzip;q=1, br;q=0.5");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.body).equals(plain)).toBe(true);
    expect(gzip.headers.etag).not.toBe(br.headers.etag);
    const none = await raw("br;q=0, gzip;q=0");
    expect(none.headers["content-encoding"]).toBeUndefined();
    expect(none.body.equals(plain)).toBe(true);
  });

  it("tells caches to keep dynamic answers until the next refresh and static ones longer", async () => {
    const dynamic = await server.get("/vls/v3/stations/42?contract=dublin");
    const maxAge = Number(/max-age=(\d+)/.exec(dynamic.headers.get("cache-control") ?? "")?.[1]);
    expect(maxAge).toBeGreaterThan(3500);
    expect(maxAge).toBeLessThanOrEqual(3600);
    expect((await server.get("/vls/v3/contracts")).headers.get("cache-control")).toBe(
      "private, max-age=3600",
    );
    expect((await fetch(`${server.base}/openapi.json`)).headers.get("cache-control")).toBe(
      "public, max-age=3600",
    );
    expect((await server.get("/vls/v3/nothing")).headers.get("cache-control")).toBe("no-store");
  });

  it("allows any origin, and lets its scripts read the ETag (and a 429's Retry-After)", async () => {
    const answer = await server.get("/vls/v3/contracts");
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect(answer.headers.get("access-control-expose-headers")).toBe(
      "ETag, Retry-After, Content-Disposition, Content-Range",
    );
    const etag = answer.headers.get("etag") as string;
    const unchanged = await server.get("/vls/v3/contracts", { headers: { "If-None-Match": etag } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get("access-control-expose-headers")).toBe(
      "ETag, Retry-After, Content-Disposition, Content-Range",
    );
    expect((await server.get("/vls/v3/nothing")).headers.get("access-control-expose-headers")).toBe(
      "ETag, Retry-After, Content-Disposition, Content-Range",
    );
    expect(
      (await fetch(`${server.base}/vls/v3/contracts`)).headers.get("access-control-allow-origin"),
    ).toBe("*");
  });
});

describe("methods", () => {
  it("answers HEAD with the headers of GET and no body", async () => {
    const headers = { "Accept-Encoding": "identity" };
    const get = await server.get("/vls/v3/contracts", { headers });
    const head = await server.get("/vls/v3/contracts", { method: "HEAD", headers });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String((await get.arrayBuffer()).byteLength));
    expect(head.headers.get("etag")).toBe(get.headers.get("etag"));
    expect(await head.text()).toBe("");
  });

  // A browser's preflight carries no key: it must not be refused, and says what the document declares.
  it("answers OPTIONS with 204 and the CORS headers, without a key", async () => {
    const response = await fetch(`${server.base}/vls/v3/stations/42?contract=dublin`, {
      method: "OPTIONS",
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-max-age")).toBe("86400");
    // A page revalidating with its own If-None-Match sends a header the preflight must allow.
    expect(response.headers.get("access-control-allow-headers")).toBe("*");
    expect(await response.text()).toBe("");
  });

  it("answers 400 to a query of more than 64 parameters before reading a key", async () => {
    const response = await server.get(`/vls/v3/contracts?a${"&a".repeat(64)}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: "Bad request query: more than 64 parameters are not allowed",
    });
  });

  it("answers 405 with Allow to other methods", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const response = await server.get("/vls/v3/contracts", { method });
      expect(response.status, method).toBe(405);
      expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
      expect(await response.json()).toEqual({ error: "Method Not Allowed" });
    }
  });
});

describe("hostile paths", () => {
  const DOTS = "dot segments are not allowed in paths";
  const ENCODED = "encoded /, \\, NUL or % are not allowed in paths";
  const MALFORMED = "the path has a malformed percent-encoding";
  const BACKSLASH = "backslashes are not allowed in paths";
  const EMPTY = "empty path segments (//) are not allowed";
  const hostile: [string, string][] = [
    ["/vls/v3/../../../etc/passwd", DOTS],
    ["/vls/v3/./contracts", DOTS],
    ["/vls/v3/%2e%2e/%2e%2e/etc/passwd", DOTS],
    ["/vls/v3/%2e%2e%2fetc%2fpasswd", ENCODED],
    ["/vls/v3/stations/..%2f..%2fetc", ENCODED],
    ["/vls/v3/%252e%252e/contracts", ENCODED],
    ["/vls/v3/..\\..\\etc\\passwd", BACKSLASH],
    ["/vls/v3/%5c..%5cetc", ENCODED],
    ["/vls/v3/%c0%ae%c0%ae/etc/passwd", MALFORMED],
    ["/vls/v3/contracts%00.json", ENCODED],
    ["/vls/v3/%", MALFORMED],
    ["/vls/v3/%zz", MALFORMED],
    ["//etc/passwd", EMPTY],
    ["/vls//v3/contracts", EMPTY],
  ];
  // The protected steps record that they ran: a refused path must reach neither.
  const reached: string[] = [];
  let running: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    const files = new Map([
      ["/vls/v3/contracts", releaseFile([Buffer.from("[]")], "application/json", "static")],
    ]);
    const release = makeRelease(files, { contracts: 0, stations: 0, parkings: 0 }, new Date());
    const spied = {
      ...release,
      files: {
        get: (path: string) => {
          reached.push(`file ${path}`);
          return files.get(path);
        },
      },
    };
    const live = { release: spied, refreshSeconds: 60, nextRefreshAt: null, lastRefresh: null };
    running = await startServer({
      live: live as unknown as Live,
      keys: {
        idOf: () => {
          reached.push("key");
          return "0de43ae5";
        },
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
  });
  afterAll(() => running.close());

  it.each(hostile)("refuses %s with 400 before any key or file lookup", async (path, reason) => {
    reached.length = 0;
    const response = await rawGet(running.url, `${path}?apiKey=k`);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ error: `Bad request path: ${reason}` });
    expect(reached).toEqual([]);
    // The same server answers a proper path, going through both steps.
    expect((await rawGet(running.url, "/vls/v3/contracts?apiKey=k")).status).toBe(200);
    expect(reached).toEqual(["key", "file /vls/v3/contracts"]);
  });
});

describe("requests Node refuses before any route", () => {
  /** The answer to bytes written as they are on a new connection, read until the server closes it. */
  const rawAnswer = (bytes: string): Promise<{ head: string[]; body: string }> =>
    new Promise((resolve, reject) => {
      const { hostname, port } = new URL(server.base);
      const socket = connect(Number(port), hostname, () => socket.end(bytes));
      let text = "";
      socket.on("data", (chunk) => (text += chunk));
      socket.on("error", reject);
      socket.on("close", () => {
        const [head = "", body = ""] = text.split("\r\n\r\n");
        resolve({ head: head.split("\r\n"), body });
      });
    });

  it.each([
    [
      "a request line past 16 KB",
      `GET /vls/v3/contracts?x=${"a".repeat(17_000)} HTTP/1.1\r\nHost: h\r\n\r\n`,
      "HTTP/1.1 414 URI Too Long",
      /request line is longer than the 16 KB/,
    ],
    [
      "headers past 16 KB",
      `GET /vls/v3/contracts HTTP/1.1\r\nHost: h\r\nX-Big: ${"a".repeat(17_000)}\r\n\r\n`,
      "HTTP/1.1 431 Request Header Fields Too Large",
      /headers are larger than the 16 KB/,
    ],
    ["no HTTP at all", "HELLO\r\n\r\n", "HTTP/1.1 400 Bad Request", /^malformed HTTP request$/],
    // Refused by Node's server after the parser, with no body unless the handler answers it.
    [
      "an HTTP/1.1 request without Host",
      "GET /vls/v3/contracts HTTP/1.1\r\n\r\n",
      "HTTP/1.1 400 Bad Request",
      /^malformed HTTP request$/,
    ],
    // RFC 9112 §3.2: which of the two would a cache or a proxy before it have read?
    [
      "a request with two Host lines",
      "GET /vls/v3/contracts HTTP/1.1\r\nHost: a.example\r\nhost: b.example\r\n\r\n",
      "HTTP/1.1 400 Bad Request",
      /^malformed HTTP request$/,
    ],
  ])(
    "answers %s with the API's JSON error and CORS header",
    async (_, request, statusLine, message) => {
      const { head, body } = await rawAnswer(request);
      expect(head[0]).toBe(statusLine);
      expect(head).toContain("Content-Type: application/json");
      expect(head).toContain("Access-Control-Allow-Origin: *");
      expect(JSON.parse(body).error).toMatch(message);
      // The same server answers the next client.
      expect((await server.get("/vls/v3/contracts")).status).toBe(200);
    },
  );

  it("answers CONNECT, which Node hands to no request listener, 405 with Allow as other methods", async () => {
    for (const target of ["/vls/v3/contracts", "127.0.0.1:22"]) {
      const { head, body } = await rawAnswer(`CONNECT ${target} HTTP/1.1\r\nHost: h\r\n\r\n`);
      expect(head[0], target).toBe("HTTP/1.1 405 Method Not Allowed");
      expect(head).toContain("Allow: GET, HEAD, OPTIONS");
      expect(head).toContain("Content-Type: application/json");
      expect(head).toContain("Access-Control-Allow-Origin: *");
      expect(JSON.parse(body)).toEqual({ error: "Method Not Allowed" });
    }
    expect((await server.get("/vls/v3/contracts")).status).toBe(200);
  });
});

describe("internal errors", () => {
  it("answers 500 with a JSON body and no stack trace, and goes on serving", async () => {
    const files = new Map([
      ["/vls/v3/contracts", releaseFile([Buffer.from("[]")], "application/json", "static")],
    ]);
    const release = makeRelease(files, { contracts: 0, stations: 0, parkings: 0 }, new Date());
    const broken = {
      ...release,
      files: {
        get: () => {
          throw new Error("disk on fire at /secret/path");
        },
      },
    };
    const live = {
      release: broken,
      refreshSeconds: 60,
      nextRefreshAt: null,
      lastRefresh: null,
    } as unknown as Live;
    const lines: string[] = [];
    const running = await startServer({
      live,
      keys: {
        idOf: () => "0de43ae5",
        revokedIdOf: () => null,
        limitOf: () => undefined,
        failingSince: () => null,
        activeCount: () => 1,
        close: () => {},
      },
      log: (line) => lines.push(line),
      port: 0,
      host: "127.0.0.1",
    });
    try {
      const response = await fetch(`${running.url}/vls/v3/contracts?apiKey=k`);
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ error: "Internal Server Error" });
      live.release = release;
      expect((await fetch(`${running.url}/vls/v3/contracts?apiKey=k`)).status).toBe(200);
      expect(lines.some((line) => line.includes("disk on fire"))).toBe(true);
      // The line names the request as the log does, its key redacted.
      expect(lines).toContain(
        "error: GET /vls/v3/contracts?apiKey=<redacted>: disk on fire at /secret/path",
      );
    } finally {
      await running.close();
    }
  });
});

/** A GET that returns the bytes as sent (fetch would decode them). */
async function rawFetch(path: string, headers: Record<string, string>) {
  const { request } = await import("node:http");
  const { hostname, port } = new URL(server.base);
  return new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const req = request({ hostname, port, path, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ headers: response.headers, body: Buffer.concat(chunks) }),
        );
      });
      req.on("error", reject);
      req.end();
    },
  );
}
