// A front server names the tree it answers from: /status is not ok when serve does not keep that tree.
import { symlink } from "node:fs/promises";
import type { IncomingMessage } from "node:http";
import { basename, dirname, join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FRONT_TREE_HEADER } from "../../src/routes/key-check.js";
import { watchFrontTree } from "../../src/serve/front-tree.js";
import type { Live } from "../../src/serve/live.js";
import { tempDir } from "../helpers.js";
import { startTestServer, type TestServer } from "./serve-helpers.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.handle.stop();
  server = undefined;
});

interface Status {
  ok: boolean;
  front: { tree: string; kept: boolean } | null;
}

/** /status as a front server on this machine asks for it, naming its tree (or none). */
async function statusFrom(base: string, tree?: string): Promise<Status> {
  const headers: Record<string, string> = tree === undefined ? {} : { [FRONT_TREE_HEADER]: tree };
  const response = await fetch(`${base}/status`, { headers });
  const status = (await response.json()) as Status;
  expect(response.status).toBe(status.ok ? 200 : 503);
  return status;
}

const frontLines = (lines: readonly string[]) =>
  lines.filter((line) => line.includes(" front server: "));

describe("the tree a front server answers from", () => {
  it("is not ok while the front's tree is not the one serve keeps, said once in the log", async () => {
    const out = join(await tempDir("velodata front-"), "out");
    // Simulated states: fresh, so that only the front can make /status not ok.
    server = await startTestServer({ simulate: true, seed: 3, refresh: 60, out });
    expect(await statusFrom(server.base)).toMatchObject({ ok: true, front: null });

    const other = join(dirname(out), "other");
    expect(await statusFrom(server.base, other)).toEqual(
      expect.objectContaining({ ok: false, front: { tree: other, kept: false } }),
    );
    await statusFrom(server.base, other); // told again: not logged again
    const [said, ...more] = frontLines(server.lines);
    expect(more).toEqual([]);
    expect(said).toContain(
      `answers from ${other}, which this server does not keep (it keeps ${out})`,
    );
    expect(said).toContain(`start velodata serve with --out ${other}`);

    // The front given the configuration of serve's own tree, named through a link to its folder.
    const link = join(await tempDir("velodata front-link-"), "srv");
    await symlink(dirname(out), link);
    const same = join(link, basename(out));
    expect(await statusFrom(server.base, same)).toEqual(
      expect.objectContaining({ ok: true, front: { tree: same, kept: true } }),
    );
    expect(frontLines(server.lines).at(-1)).toContain(
      `answers from ${same}, the tree this server keeps`,
    );
  });

  it("is not ok behind a front when serve keeps no tree at all", async () => {
    server = await startTestServer({ simulate: true, seed: 3, refresh: 60 });
    const tree = "/srv/velodata/out";
    expect(await statusFrom(server.base, tree)).toEqual(
      expect.objectContaining({ ok: false, front: { tree, kept: false } }),
    );
    expect(frontLines(server.lines)).toEqual([
      expect.stringContaining(`which this server does not keep (it has no --out)`),
    ]);
  });

  it("takes the header only from a peer on this machine, as X-Forwarded-For", () => {
    const live = { release: {} } as Live;
    const lines: string[] = [];
    const watch = watchFrontTree(undefined, live, (line) => lines.push(line));
    const asked = (remoteAddress: string) =>
      ({
        headers: { [FRONT_TREE_HEADER.toLowerCase()]: "/srv/out" },
        socket: { remoteAddress },
      }) as unknown as IncomingMessage;
    watch(asked("192.0.2.7"));
    expect([live.front, lines]).toEqual([undefined, []]);
    watch(asked("::ffff:127.0.0.1"));
    expect(live.front).toEqual({ tree: "/srv/out", kept: false });
  });

  it("says each tree once when two configurations hand on to the same server in turn", () => {
    const live = { release: {} } as Live;
    const lines: string[] = [];
    const watch = watchFrontTree(undefined, live, (line) => lines.push(line));
    const asked = (tree: string) =>
      ({
        headers: { [FRONT_TREE_HEADER.toLowerCase()]: tree },
        socket: { remoteAddress: "127.0.0.1" },
      }) as unknown as IncomingMessage;
    for (let turn = 0; turn < 3; turn++) {
      watch(asked("/srv/old"));
      watch(asked("/srv/new"));
    }
    expect(live.front).toEqual({ tree: "/srv/new", kept: false });
    expect(lines).toEqual([
      expect.stringContaining("answers from /srv/old, which"),
      expect.stringContaining("answers from /srv/new, which"),
    ]);
  });

  it("takes a relative --out for the same tree", async () => {
    const out = join(await tempDir("velodata front-"), "out");
    const live = { release: {} } as Live;
    const watch = watchFrontTree(relative(process.cwd(), out), live, () => {});
    const headers = { [FRONT_TREE_HEADER.toLowerCase()]: out };
    watch({ headers, socket: { remoteAddress: "127.0.0.1" } } as unknown as IncomingMessage);
    expect(live.front).toEqual({ tree: out, kept: true });
  });
});
