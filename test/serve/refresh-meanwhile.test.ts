// While a refresh renders, the server keeps answering, from the release it serves: the refresh
// works in steps, never in one long stretch.
import { afterEach, describe, expect, it, vi } from "vitest";
import { editStates, rawGet, startTestServer, type TestServer } from "./serve-helpers.js";

// The refresh's steps (a contract each) are held until the test lets them go.
const held = vi.hoisted(() => ({
  started: undefined as (() => void) | undefined,
  release: undefined as Promise<void> | undefined,
}));
vi.mock("../../src/publish/refresh-release.js", async (original) => {
  const real = await original<typeof import("../../src/publish/refresh-release.js")>();
  const refreshRelease: typeof real.refreshRelease = (served, dataset, cache, options) =>
    real.refreshRelease(served, dataset, cache, {
      ...options,
      pause: async () => {
        held.started?.();
        await held.release;
        await options.pause?.();
      },
    });
  return { ...real, refreshRelease };
});

let server: TestServer | undefined;
afterEach(async () => {
  await server?.handle.stop();
  server = undefined;
});

describe("a refresh under way", () => {
  it("leaves requests answered from the served release until its swap", async () => {
    server = await startTestServer();
    const path = `/vls/v3/stations?contract=dublin&apiKey=${server.key}`;
    const before = await rawGet(server.base, path);
    await editStates(server.source, (text) =>
      text.replace('"lastUpdate": "2025-02-08T16:44:06Z"', '"lastUpdate": "2025-02-08T16:45:06Z"'),
    );
    let letGo = () => {};
    held.release = new Promise((resolve) => {
      letGo = resolve;
    });
    const rendering = new Promise<void>((resolve) => {
      held.started = resolve;
    });
    const refreshed = server.handle.refreshNow();
    try {
      await rendering;
      // Mid-render (held between two of its steps): answered, with the old bytes.
      const meanwhile = await rawGet(server.base, path);
      expect(meanwhile.status).toBe(200);
      expect(meanwhile.body).toBe(before.body);
    } finally {
      held.started = undefined;
      letGo();
    }
    expect((await refreshed).ok).toBe(true);
    const after = await rawGet(server.base, path);
    expect(after.status).toBe(200);
    expect(after.body).not.toBe(before.body);
  });
});
