// `serve --out` when the tree cannot follow a refresh: memory and disk stay on the same release, and the log and /status say so.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { dublin42ReportedAt, runCli, tempDir } from "../helpers.js";
import { liveNodeProcess } from "../tree/tree-helpers.js";
import { editStates, startTestServer, type TestServer } from "./serve-helpers.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.handle.stop();
  server = undefined;
});

describe("serve --out, a refresh", () => {
  // Lists and feeds a station's change rewrites, big enough to get compressed variants.
  const rewritten = ["vls/v3/stations.json", "contracts/dublin/gbfs/v3/station_status.json"];

  /** The file's bytes, and those its .gz and .br siblings decode to. */
  const withSiblings = async (out: string, file: string): Promise<string[]> => {
    const path = join(out, file);
    return [
      await readFile(path, "utf8"),
      gunzipSync(await readFile(`${path}.gz`)).toString("utf8"),
      brotliDecompressSync(await readFile(`${path}.br`)).toString("utf8"),
    ];
  };

  it("writes each changed file with its .gz and .br siblings, which nginx sends as they are", async () => {
    const out = join(await tempDir(), "out");
    server = await startTestServer({ out });
    const before = await Promise.all(rewritten.map((file) => withSiblings(out, file)));
    await editStates(server.source, (text) => dublin42ReportedAt(text, "2025-02-08T16:49:00Z"));
    expect((await server.handle.refreshNow()).ok).toBe(true);
    for (const [at, file] of rewritten.entries()) {
      const [body, gzip, br] = await withSiblings(out, file);
      expect(body, file).not.toBe(before[at]?.[0]);
      expect([gzip, br], file).toEqual([body, body]);
    }
  });
});

describe("serve --out, its tree deleted by hand", () => {
  it.each([
    ["deleted", async (out: string) => rm(out)],
    ["replaced by an empty folder", async (out: string) => rm(out).then(() => mkdir(out))],
  ])("writes it whole again at the next refresh when its link was %s", async (_, undo) => {
    const out = join(await tempDir(), "out");
    server = await startTestServer({ out });
    await undo(out); // the published link: the store beside it stays
    await editStates(server.source, (text) => dublin42ReportedAt(text, "2025-02-08T16:49:00Z"));
    const outcome = await server.handle.refreshNow();
    expect(outcome.ok, outcome.error ?? "").toBe(true);
    const station = JSON.parse(await readFile(join(out, "vls/v3/stations/dublin/42.json"), "utf8"));
    expect(station.lastUpdate).toBe("2025-02-08T16:49:00Z");
    const status = (await (await fetch(`${server.base}/status`)).json()) as Record<string, unknown>;
    expect(status.tree).toMatchObject({ path: out, error: null });
  });

  it("keeps it to itself when its whole store was deleted: a build of it is still refused", async () => {
    const parent = await tempDir();
    const out = join(parent, "out");
    server = await startTestServer({ out });
    await rm(join(parent, ".out.velodata"), { recursive: true }); // its mark with it
    const outcome = await server.handle.refreshNow();
    expect(outcome.ok, outcome.error ?? "").toBe(true);
    expect(await readFile(join(out, "vls/v3/contracts.json"), "utf8")).toContain("dublin");
    const build = await runCli(["build", "--source", server.source, "--out", out]);
    expect([build.code, build.stderr]).toEqual([
      1,
      expect.stringContaining(
        `${out} is kept by velodata serve (pid ${process.pid}), which writes it at every refresh`,
      ),
    ]);
  });
});

describe("serve --out, tree update failing", () => {
  it("keeps serving the release the tree holds, logs the truth and shows it in /status", async () => {
    const parent = await tempDir();
    const out = join(parent, "out");
    server = await startTestServer({ out });
    const before = await (await server.get("/vls/v3/stations/42?contract=dublin")).text();
    const release = ((await (await fetch(`${server.base}/status`)).json()) as { release: string })
      .release;
    // Another live velodata holds the tree: the update cannot happen.
    const other = liveNodeProcess();
    onTestFinished(other.stop);
    await writeFile(join(parent, ".out.velodata/lock"), String(other.pid));
    await editStates(server.source, (text) => dublin42ReportedAt(text, "2025-02-08T16:49:00Z"));
    const outcome = await server.handle.refreshNow();
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toContain(`being written by another velodata process (pid ${other.pid})`);
    expect(await (await server.get("/vls/v3/stations/42?contract=dublin")).text()).toBe(before);
    expect(await readFile(join(out, "vls/v3/stations/dublin/42.json"), "utf8")).toBe(before);
    expect(server.lines.find((line) => line.includes("refresh failed"))).toContain(
      `keeping release ${release}`,
    );
    const status = (await (await fetch(`${server.base}/status`)).json()) as Record<string, unknown>;
    expect(status.release).toBe(release);
    expect(status.tree).toMatchObject({
      path: out,
      release,
      error: expect.stringContaining(`pid ${other.pid}`),
    });
  });
});
