// serve reads its static source at start only: an edit of it is said once, at the refresh that
// sees it, and not again until the source changes anew (see static-watch.ts).
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./serve-helpers.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.handle.stop();
  server = undefined;
});

const CHANGED = "changed since this server started: restart it to publish the change";
const said = (lines: readonly string[]) => lines.filter((line) => line.includes(CHANGED));

describe("serve: its static source edited while it runs", () => {
  it("says so once, at the next refresh, and again only for a further edit", async () => {
    server = await startTestServer();
    const stations = join(server.source, "stations.csv");
    const original = await readFile(stations, "utf8");
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect(said(server.lines)).toEqual([]);
    // A station renamed: not published (the server answers what it read at start).
    await writeFile(
      stations,
      original.replace("SMITHFIELD NORTH,Smithfield North", "SMITHFIELD,Smithfield North"),
    );
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect(said(server.lines)).toEqual([
      expect.stringMatching(
        new RegExp(
          `warning: the static source in ${server.source} ${CHANGED}, once \`velodata validate --source ${server.source}\` finds no error in it \\(a server does not start on a source in error; a refresh reads the states only\\)$`,
        ),
      ),
    ]);
    expect((await (await server.get("/vls/v3/stations/42?contract=dublin")).json()).name).toBe(
      "SMITHFIELD NORTH",
    );
    // Not said again for the same edit; said for another.
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect(said(server.lines)).toHaveLength(1);
    await writeFile(
      stations,
      original.replace("SMITHFIELD NORTH,Smithfield North", "SMITHFIELD N.,Smithfield North"),
    );
    expect((await server.handle.refreshNow()).ok).toBe(true);
    expect(said(server.lines)).toHaveLength(2);
  });
});
