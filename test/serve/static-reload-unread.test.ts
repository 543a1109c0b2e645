import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renamed42, startTestServer, type TestServer } from "./serve-helpers.js";

// The start reads the source as it is; the reads after it fail while `fails` is set.
const reads = vi.hoisted(() => ({ fails: false }));
vi.mock("../../src/source/read-dataset.js", async (original) => {
  const real = await original<typeof import("../../src/source/read-dataset.js")>();
  return {
    ...real,
    readStatic: (...args: Parameters<typeof real.readStatic>) =>
      reads.fails
        ? Promise.reject(
            Object.assign(new Error("EMFILE: too many open files, open 'stations.csv'"), {
              code: "EMFILE",
              syscall: "open",
              path: join(args[0], "stations.csv"),
            }),
          )
        : real.readStatic(...args),
  };
});

let server: TestServer | undefined;
afterEach(async () => {
  await server?.handle.stop();
  server = undefined;
  reads.fails = false;
});

describe("serve: an edit of its static source the system fails to read", () => {
  it("says so once, and publishes the same edit once it can be read", async () => {
    server = await startTestServer();
    await renamed42(server, "SMITHFIELD NORTH,", "SMITHFIELD,");
    reads.fails = true;
    for (let minute = 0; minute < 2; minute++)
      expect((await server.handle.refreshNow()).ok).toBe(true);
    const said = server.lines.filter((line) => line.includes("static source:"));
    expect(said).toEqual([expect.stringContaining("its change is not published")]);
    const served = server;
    const name = async () =>
      ((await (await served.get("/vls/v3/stations/42?contract=dublin")).json()) as { name: string })
        .name;
    expect(await name()).toBe("SMITHFIELD NORTH");
    // The files did not change since: the same edit, read again, and published.
    reads.fails = false;
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect(await name()).toBe("SMITHFIELD");
  });
});
