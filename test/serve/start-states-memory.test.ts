// What the start's read of the states file leaves (its records, parsed and checked, and the file's
// text: ~75 MB at 100,000 stations) is let go once the refreshes read the file as bytes, as it was
// before serve followed its static source: the source of states made for an edit needs none of it.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { KnownStates } from "../../src/source/known-states.js";
import { collectGarbage, dublin42ReportedAt } from "../helpers.js";
import { startTestServer, type TestServer } from "./serve-helpers.js";

// The first read's KnownStates, held weakly (a vi.fn would keep what it returned).
const first = vi.hoisted(() => ({ known: undefined as WeakRef<object> | undefined }));
vi.mock("../../src/source/read-dataset.js", async (original) => {
  const real = await original<typeof import("../../src/source/read-dataset.js")>();
  return {
    ...real,
    readStates: async (...args: Parameters<typeof real.readStates>) => {
      const read = await real.readStates(...args);
      if (!first.known && read.known) first.known = new WeakRef<KnownStates>(read.known);
      return read;
    },
  };
});

let server: TestServer | undefined;
afterEach(async () => {
  await server?.handle.stop();
  server = undefined;
});

describe("serve: the start's read of the states file", () => {
  it("is let go once the refreshes read the file as bytes", async () => {
    server = await startTestServer();
    expect(first.known?.deref()).toBeDefined();
    const states = join(server.source, "states.json");
    const original = await readFile(states, "utf8");
    for (const reported of ["2025-02-08T17:01:00Z", "2025-02-08T17:02:00Z"]) {
      await writeFile(states, dublin42ReportedAt(original, reported));
      expect((await server.handle.refreshNow()).ok).toBe(true);
    }
    await collectGarbage();
    expect(first.known?.deref()).toBeUndefined();
  });
});
