// Keys added, revoked, or broken while the server runs.
import { readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryOutput } from "../../src/commands/output.js";
import { serve } from "../../src/commands/serve.js";
import { addKey, revokeKey } from "../../src/serve/keys/key-file.js";
import { fixtureCopy } from "../helpers.js";
import { startTestServer, type TestServer } from "./serve-helpers.js";

let server: TestServer;
beforeAll(async () => {
  // The fixtures' states are old: no share of stale stations makes /status fail here but the keys.
  server = await startTestServer({ maxStale: 100 });
});
afterAll(() => server.handle.stop());

const statusWith = async (key: string) =>
  (await fetch(`${server.base}/vls/v3/contracts?apiKey=${key}`)).status;

/** Polls until the server agrees, for at most a few seconds (the keys file is checked every second). */
async function eventually(key: string, status: number): Promise<number> {
  const deadline = Date.now() + 5000;
  let last = await statusWith(key);
  while (last !== status && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await statusWith(key);
  }
  return last;
}

describe("keys while running", () => {
  it("accepts a key added after the start, and refuses it once revoked", async () => {
    const { key, stored } = await addKey(server.keysFile, "late", new Date());
    expect(await eventually(key, 200)).toBe(200);
    await revokeKey(server.keysFile, stored.id, new Date());
    expect(await eventually(key, 403)).toBe(403);
    expect(await statusWith(server.key)).toBe(200);
  });

  it("keeps the last good keys when the file becomes invalid, and reports it, in /status too", async () => {
    const good = await readFile(server.keysFile, "utf8");
    const status = async () => {
      const answer = await fetch(`${server.base}/status`);
      const body = (await answer.json()) as { ok: boolean; keys: unknown };
      return { status: answer.status, ok: body.ok, keys: body.keys };
    };
    expect(await status()).toEqual({
      status: 200,
      ok: true,
      keys: { ok: true, failingSince: null, activeKeys: 1 },
    });
    const broken = Date.now();
    await writeFile(server.keysFile, "{ not json");
    const deadline = Date.now() + 5000;
    while (
      !server.lines.some((line) => line.includes("keeping the last good set of keys")) &&
      Date.now() < deadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(
      server.lines.some(
        (line) =>
          line.includes("keys.json cannot be read") && line.includes("keeping the last good set"),
      ),
    ).toBe(true);
    expect(await statusWith(server.key)).toBe(200);
    // A monitor reading /status sees that key changes no longer take effect (503), and since when.
    const failing = await status();
    expect(failing).toMatchObject({ status: 503, ok: false, keys: { ok: false } });
    const since = Date.parse((failing.keys as { failingSince: string }).failingSince);
    expect(since).toBeGreaterThanOrEqual(broken - 1000);
    expect(since).toBeLessThanOrEqual(Date.now());
    // Once the file reads well again, /status says so.
    await writeFile(server.keysFile, good);
    const readAgain = Date.now() + 5000;
    let again = await status();
    while (again.status !== 200 && Date.now() < readAgain) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      again = await status();
    }
    expect(again).toEqual({
      status: 200,
      ok: true,
      keys: { ok: true, failingSince: null, activeKeys: 1 },
    });
  });

  it("warns when no key is accepted (a keys file missing), and says so in /status until one is added", async () => {
    const source = await fixtureCopy();
    const keysFile = join(source, "..", "no-such-keys.json");
    const output = memoryOutput();
    const handle = await serve({
      source,
      // Given relative to the working folder, as a unit's WorkingDirectory makes it: said whole.
      keys: relative(process.cwd(), keysFile),
      port: 0,
      refresh: 3600,
      maxStale: 100,
      output,
    });
    try {
      expect(output.lines.join("\n")).toContain(`no keys file at ${keysFile}: no key is accepted`);
      expect(output.lines.join("\n")).toContain(`velodata keys add --keys ${keysFile} (`);
      const status = async () => {
        const answer = await fetch(`${handle.url}/status`);
        return { status: answer.status, keys: ((await answer.json()) as { keys: unknown }).keys };
      };
      expect(await status()).toEqual({
        status: 503,
        keys: { ok: false, failingSince: null, activeKeys: 0 },
      });
      // The server's own document names this cause of the 503, where a monitoring check looks.
      const document = (await (await fetch(`${handle.url}/openapi.json`)).json()) as {
        paths: Record<string, { get: { responses: Record<string, { description: string }> } }>;
        components: { schemas: { ServerStatus: { properties: { ok: { description: string } } } } };
      };
      expect(document.paths["/status"]?.get.responses["503"]?.description).toContain(
        "no key is accepted",
      );
      expect(document.components.schemas.ServerStatus.properties.ok.description).toContain(
        "no key is accepted",
      );
      // The first key added: accepted, and /status well again.
      const { key } = await addKey(keysFile, "first", new Date());
      const deadline = Date.now() + 5000;
      let now = await status();
      while (now.status !== 200 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        now = await status();
      }
      expect(now).toEqual({ status: 200, keys: { ok: true, failingSince: null, activeKeys: 1 } });
      expect((await fetch(`${handle.url}/vls/v3/contracts?apiKey=${key}`)).status).toBe(200);
    } finally {
      await handle.stop();
    }
  });
});
