// A refresh swaps the new bytes in before their variants exist: requests meanwhile get them as they
// are (identity), none waits for compression; a second swap adds the variants.
import { request } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CompressionBudget } from "../../src/publish/compress.js";
import type { Release } from "../../src/publish/release.js";
import { editStates, startTestServer, type TestServer } from "./serve-helpers.js";

// The refresh's compression is held until the test releases it; the start-up's runs as it is.
const held = vi.hoisted(() => ({
  started: undefined as (() => void) | undefined,
  release: undefined as Promise<void> | undefined,
  fail: false,
}));
vi.mock("../../src/publish/compress.js", async (original) => {
  const real = await original<typeof import("../../src/publish/compress.js")>();
  // A refresh compresses its changed answers a list or a feed at a time (ChangedVariants, the
  // only caller of these outside their module); a whole publish, the whole release.
  const hold = async (budget: CompressionBudget) => {
    if (budget === "refresh" && held.fail) throw new Error("out of memory");
    if (budget === "refresh" && held.started) {
      held.started();
      await held.release;
    }
  };
  const heldBack =
    <A extends unknown[], R>(make: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await hold("refresh");
      return make(...args);
    };
  return {
    ...real,
    compressRelease: async (
      release: Release,
      options: Parameters<typeof real.compressRelease>[1],
    ) => {
      await hold(options.budget);
      return real.compressRelease(release, options);
    },
    compressBody: heldBack(real.compressBody),
    contractListPieces: heldBack(real.contractListPieces),
  };
});

let server: TestServer | undefined;
afterEach(async () => {
  await server?.handle.stop();
  server = undefined;
});

function get(base: string, path: string, acceptEncoding: string) {
  return new Promise<{ headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const { hostname, port } = new URL(base);
    const outgoing = request(
      { hostname, port, path, headers: { "accept-encoding": acceptEncoding } },
      (response) => {
        response.setEncoding("latin1");
        let body = "";
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve({ headers: response.headers, body }));
      },
    );
    outgoing.on("error", reject);
    outgoing.end();
  });
}

describe("refresh swap", () => {
  it("serves the new bytes uncompressed while their variants are made, then compressed", async () => {
    server = await startTestServer();
    const path = `/vls/v3/stations?contract=dublin&apiKey=${server.key}`;
    const before = await get(server.base, path, "gzip");
    expect(before.headers["content-encoding"]).toBe("gzip");
    await editStates(server.source, (text) =>
      text.replace('"lastUpdate": "2025-02-08T16:44:06Z"', '"lastUpdate": "2025-02-08T16:45:06Z"'),
    );

    let letGo = () => {};
    held.release = new Promise((resolve) => {
      letGo = resolve;
    });
    const compressing = new Promise<void>((resolve) => {
      held.started = resolve;
    });
    const refreshed = server.handle.refreshNow();
    await compressing;

    // Compression has started and cannot finish: the new list is served already, as it is.
    const meanwhile = await get(server.base, path, "gzip, br");
    expect(meanwhile.headers["content-encoding"]).toBeUndefined();
    expect(meanwhile.body).toContain('"lastUpdate":"2025-02-08T16:45:06Z"');
    expect(meanwhile.headers.etag).not.toBe(before.headers.etag);

    letGo();
    expect((await refreshed).ok).toBe(true);
    held.started = undefined;
    const after = await get(server.base, path, "gzip");
    expect(after.headers["content-encoding"]).toBe("gzip");
    // Same bytes, same tag: the second swap only added the variants.
    expect((await get(server.base, path, "identity")).headers.etag).toBe(meanwhile.headers.etag);
  });

  it("keeps serving the new release uncompressed when its variants cannot be made", async () => {
    server = await startTestServer();
    await editStates(server.source, (text) =>
      text.replace('"lastUpdate": "2025-02-08T16:44:06Z"', '"lastUpdate": "2025-02-08T16:45:06Z"'),
    );
    held.fail = true;
    try {
      expect((await server.handle.refreshNow()).ok).toBe(true);
    } finally {
      held.fail = false;
    }
    const answer = await get(
      server.base,
      `/vls/v3/stations?contract=dublin&apiKey=${server.key}`,
      "gzip",
    );
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(answer.body).toContain('"lastUpdate":"2025-02-08T16:45:06Z"');
    expect(server.lines.join("\n")).toContain("variants not made (out of memory)");
  });
});
