// `serve --out` at start: it answers from memory while the tree is written, and /status says the
// tree holds no whole release until then.
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type ServeHandle, serve } from "../../src/commands/serve.js";
import { addKey } from "../../src/serve/keys/key-file.js";
import * as writing from "../../src/tree/write-tree.js";
import { fixtureCopy } from "../helpers.js";

vi.mock("../../src/tree/write-tree.js", async (original) => {
  const actual = await original<typeof import("../../src/tree/write-tree.js")>();
  return { ...actual, writeTree: vi.fn(actual.writeTree) };
});

let handle: ServeHandle | undefined;
afterEach(async () => {
  await handle?.stop();
  handle = undefined;
});

describe("serve --out, at start", () => {
  it("answers while the tree is written, /status showing no whole release on disk yet", async () => {
    const source = await fixtureCopy();
    const out = join(source, "..", "out");
    const keys = join(source, "..", "keys.json");
    const { key } = await addKey(keys, "tests", new Date());
    // The tree's first write waits for the test; the real one follows.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const { writeTree } = await vi.importActual<typeof writing>("../../src/tree/write-tree.js");
    vi.mocked(writing.writeTree).mockImplementationOnce(async (...args) => {
      await released;
      return writeTree(...args);
    });
    // The server's lines as they come: the one naming its address while the tree is written.
    let answering: (url: string) => void = () => {};
    const address = new Promise<string>((resolve) => (answering = resolve));
    const lines: string[] = [];
    const output = {
      info: (line: string) => {
        lines.push(line);
        const url = / answering at (\S+) while the tree is written to /.exec(line)?.[1];
        if (url) answering(url);
      },
      warn: (line: string) => lines.push(line),
      progress: () => {},
    };
    const starting = serve({ source, keys, out, port: 0, refresh: 3600, output });
    const url = await address;

    const during = await (await fetch(`${url}/status`)).json();
    expect(during.tree).toEqual({ path: out, release: null, error: null });
    expect((await fetch(`${url}/vls/v3/contracts?apiKey=${key}`)).status).toBe(200);

    release();
    handle = await starting;
    const after = await (await fetch(`${url}/status`)).json();
    expect(after.tree).toEqual({ path: out, release: after.release, error: null });
    expect(lines.findIndex((line) => / answering at /.test(line))).toBeLessThan(
      lines.findIndex((line) => / serving \d+ stations /.test(line)),
    );
  });
});
