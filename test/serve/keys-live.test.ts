// Keys added, revoked, or broken while the server runs.
import { writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addKey, revokeKey } from "../../src/serve/keys/key-file.js";
import { startTestServer, type TestServer } from "./serve-helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
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

  it("keeps the last good keys when the file becomes invalid, and reports it", async () => {
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
  });
});
