// Compressed answers come from bytes made before the release was swapped in, never per request.
import { request } from "node:http";
import * as zlib from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { editStates, startTestServer, type TestServer } from "./serve-helpers.js";

// Every compression velodata does goes through these two functions; count the calls.
vi.mock("node:zlib", async (original) => {
  const real = await original<typeof import("node:zlib")>();
  return { ...real, gzip: vi.fn(real.gzip), brotliCompress: vi.fn(real.brotliCompress) };
});

let server: TestServer | undefined;
afterEach(async () => {
  await server?.handle.stop();
  server = undefined;
});

function get(base: string, path: string, acceptEncoding: string) {
  return new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    const { hostname, port } = new URL(base);
    const outgoing = request(
      { hostname, port, path, headers: { "accept-encoding": acceptEncoding } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ headers: response.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    outgoing.on("error", reject);
    outgoing.end();
  });
}

describe("precompressed variants", () => {
  it("answers the first request after a refresh compressed, without compressing anything", async () => {
    server = await startTestServer();
    await editStates(server.source, (text) =>
      text.replace('"lastUpdate": "2025-02-08T16:44:06Z"', '"lastUpdate": "2025-02-08T16:45:06Z"'),
    );
    vi.mocked(zlib.brotliCompress).mockClear();
    vi.mocked(zlib.gzip).mockClear();
    expect((await server.handle.refreshNow()).ok).toBe(true);
    // The refresh compressed the lists that changed, before swapping them in…
    expect(vi.mocked(zlib.brotliCompress).mock.calls.length).toBeGreaterThan(0);
    vi.mocked(zlib.brotliCompress).mockClear();
    vi.mocked(zlib.gzip).mockClear();

    const path = `/vls/v3/stations?contract=dublin&apiKey=${server.key}`;
    const br = await get(server.base, path, "br");
    const gzip = await get(server.base, path, "gzip");
    const plain = await get(server.base, path, "identity");
    // …so answering compressed them no more.
    expect(vi.mocked(zlib.brotliCompress)).not.toHaveBeenCalled();
    expect(vi.mocked(zlib.gzip)).not.toHaveBeenCalled();
    expect(br.headers["content-encoding"]).toBe("br");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(plain.body.toString()).toContain('"lastUpdate":"2025-02-08T16:45:06Z"');
    expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(zlib.gunzipSync(gzip.body).equals(plain.body)).toBe(true);
  });
});
