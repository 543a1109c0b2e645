import { afterEach, describe, expect, it, vi } from "vitest";
import {
  editStates,
  renamed42,
  startTestServer,
  station42AtEachMinute,
  type TestServer,
} from "./serve-helpers.js";

// Only an edit's publish renders the static answers off the thread: a start renders them in it.
const worker = vi.hoisted(() => ({ fails: true }));
vi.mock("../../src/publish/static-off-thread.js", async (original) => {
  const real = await original<typeof import("../../src/publish/static-off-thread.js")>();
  return {
    ...real,
    publishStaticOffThread: (...args: Parameters<typeof real.publishStaticOffThread>) =>
      worker.fails
        ? Promise.reject(new Error("the static answers' worker ended with code 1 before answering"))
        : real.publishStaticOffThread(...args),
  };
});

let server: TestServer | undefined;
afterEach(async () => {
  await server?.handle.stop();
  server = undefined;
  worker.fails = true;
});

const staticError = async (served: TestServer) =>
  (
    (await (await fetch(`${served.base}/status`)).json()) as {
      staticSource: { error: string | null };
    }
  ).staticSource.error;

describe("serve: an edit of its static source whose publish fails", () => {
  it("publishes the minute's states all the same, says the failure once, and the edit after it", async () => {
    server = await startTestServer();
    await renamed42(server, "SMITHFIELD NORTH,", "SMITHFIELD,");
    const minutes = await station42AtEachMinute<{ name: string; lastUpdate: string }>(server, [
      "2025-02-08T17:01:00Z",
      "2025-02-08T17:02:00Z",
    ]);
    for (const { reported, ok, station } of minutes)
      expect([ok, station.name, station.lastUpdate]).toEqual([true, "SMITHFIELD NORTH", reported]);
    expect(server.lines.filter((line) => line.includes("ended with code 1"))).toHaveLength(1);
    expect(await staticError(server)).toContain("ended with code 1 before answering");
    // The next edit is tried again, and published.
    worker.fails = false;
    await renamed42(server, "SMITHFIELD,", "SMITHFIELD N,");
    expect((await server.handle.refreshNow()).ok).toBe(true);
    const renamed = (await (await server.get("/vls/v3/stations/42?contract=dublin")).json()) as {
      name: string;
    };
    expect(renamed.name).toBe("SMITHFIELD N");
    expect(await staticError(server)).toBeNull();
  });

  it("says the minute's states in error once: those left out of the states it publishes", async () => {
    server = await startTestServer();
    await renamed42(server, "SMITHFIELD NORTH,", "SMITHFIELD,");
    await editStates(server.source, (text) => text.replace('"bikes": 27,', '"bikes": 99,'));
    expect((await server.handle.refreshNow()).ok).toBe(true);
    // Read twice (against the edit, then against the source before): said for the one published.
    expect(server.lines.filter((line) => line.includes("in error left out"))).toEqual([
      expect.stringContaining("1 state in error left out: "),
    ]);
  });
});
