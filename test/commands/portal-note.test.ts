// A source folder without portal.json: the commands that read it say so once, with what to write,
// where the public page alone would leave its readers no way to reach the operator.
import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ended, fixtureCopy, ROOT, refreshArgs, runCli, tempDir } from "../helpers.js";

/** The lines that say it, of a command's stderr or a server's log. */
const notesIn = (text: string, source: string): string[] =>
  text.split("\n").filter((line) => line.includes(`portal: no ${join(source, "portal.json")}: `));

const PORTAL = { serviceName: "Open Bikes", keys: { url: "https://example.org/keys" } };

describe("a source without portal.json", () => {
  it("is said once by validate and build, with what to write; not once the file is there", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    const validated = await runCli(["validate", "--source", source]);
    const built = await runCli(["build", "--source", source, "--out", out]);
    expect(notesIn(validated.stderr, source)).toEqual([
      `portal: no ${join(source, "portal.json")}: the portal page is titled "velodata" and tells readers to ask "the operator of this deployment" for a key, with no way to reach them; ` +
        `write it with the service's name and where to ask for a key, {"serviceName": "…", "keys": {"url": "https://…"}} (see the README's Portal section)`,
    ]);
    // A note, not a warning: validate's count of them is the fixtures' own two.
    expect(validated.stdout).toMatch(/ is valid: .* \(2 warnings\)\n$/);
    await writeFile(join(source, "portal.json"), JSON.stringify(PORTAL));
    const withPortal = await runCli(["validate", "--source", source]);
    expect([built, withPortal].map(({ stderr }) => notesIn(stderr, source).length)).toEqual([1, 0]);
  });

  it("is said by a refresh that reads the static source anew, as its warnings are, not every minute", async () => {
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await runCli(["build", "--source", source, "--out", out])).code).toBe(0);
    const unchanged = await runCli(refreshArgs(source, out));
    const stations = join(source, "stations.csv");
    await writeFile(stations, (await readFile(stations, "utf8")).replace("Smithfield", "Smith"));
    const edited = await runCli(refreshArgs(source, out));
    expect([unchanged, edited].map(({ stderr }) => notesIn(stderr, source).length)).toEqual([0, 1]);
  });

  it("is said once in serve's log at its start, as the keys file's note is", async () => {
    const source = await fixtureCopy();
    const keys = join(source, "..", "keys.json");
    const child = spawn(process.execPath, [
      join(ROOT, "bin/velodata.js"),
      ...["serve", "--source", source, "--keys", keys, "--port", "0", "--simulate", "--demo-key"],
    ]);
    child.stdout.on("data", (chunk) => {
      if (String(chunk).includes(" serving ")) child.kill("SIGTERM");
    });
    const { stdout, stderr } = await ended(child);
    expect(notesIn(stdout, source)).toEqual([
      expect.stringMatching(
        /^\S+Z portal: no \S+portal\.json: the portal page is titled "velodata" .* \(see the README's Portal section\)$/,
      ),
    ]);
    expect(notesIn(stderr, source)).toEqual([]);
  });
});
