// Keys added, revoked, or broken while the server runs.
import { readFile, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addKey, revokeKey } from "../../src/serve/keys/key-file.js";
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
      keys: { ok: true, failingSince: null },
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
    expect(again).toEqual({ status: 200, ok: true, keys: { ok: true, failingSince: null } });
  });
});
