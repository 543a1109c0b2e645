// HTTP done right: validators, encodings, methods, CORS, hostile paths, internal errors.
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
      "public, max-age=3600",
    );
    expect((await server.get("/vls/v3/nothing")).headers.get("cache-control")).toBe("no-store");
  });

  it("allows any origin", async () => {
    expect((await server.get("/vls/v3/contracts")).headers.get("access-control-allow-origin")).toBe(
      "*",
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
  const hostile = [
    "/vls/v3/../../../etc/passwd",
    "/vls/v3/./contracts",
    "/vls/v3/%2e%2e/%2e%2e/etc/passwd",
    "/vls/v3/%2e%2e%2fetc%2fpasswd",
    "/vls/v3/stations/..%2f..%2fetc",
    "/vls/v3/%252e%252e/contracts",
    "/vls/v3/..\\..\\etc\\passwd",
    "/vls/v3/%5c..%5cetc",
    "/vls/v3/%c0%ae%c0%ae/etc/passwd",
    "/vls/v3/contracts%00.json",
    "/vls/v3/%",
    "/vls/v3/%zz",
    "//etc/passwd",
    "/vls//v3/contracts",
  ];
  it.each(hostile)("refuses %s with a 4xx and keeps serving", async (path) => {
    const response = await rawGet(server.base, `${path}?apiKey=${server.key}`);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.body).not.toContain("root:");
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
      keys: { accepts: () => true, close: () => {} },
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
