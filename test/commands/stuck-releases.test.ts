// A release folder written by a velodata command run as another user (a build as root in a tree
// a server keeps as its own user) cannot be removed by the tree's user: said by the command that
// leaves it, not left to grow unseen. Needs root, to run velodata as two users.
import { spawn } from "node:child_process";
import { chmod, chown, mkdir, readdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, type CliResult, ended, fixtureCopy, runCli, tempDir } from "../helpers.js";

const NOBODY = 65534;

/** velodata run as user and group `NOBODY`, as a server's own user would run it. */
const runAsNobody = (args: readonly string[]): Promise<CliResult> =>
  ended(
    spawn(
      "setpriv",
      [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", process.execPath, BIN, ...args],
      { env: { ...process.env, FORCE_COLOR: "0", HOME: "/tmp" } },
    ),
  );

describe.skipIf(process.getuid?.() !== 0)("a release folder another user wrote", () => {
  it("is said by the build that cannot remove it, with whose it is and what to do", async () => {
    const dir = await tempDir();
    await chmod(dir, 0o755);
    const source = await fixtureCopy();
    await chmod(dirname(source), 0o755); // a temporary folder is its maker's alone
    const kept = join(dir, "kept");
    await mkdir(kept);
    await chown(kept, NOBODY, NOBODY);
    const out = join(kept, "out");
    const args = [
      "build",
      "--source",
      source,
      "--out",
      out,
      "--base-url",
      "https://bikes.example.org",
    ];
    const first = await runAsNobody(args);
    expect(first.code, first.stderr).toBe(0);
    // Built once as root: its release is root's, which the tree's own user cannot remove.
    const asRoot = await runCli(args);
    expect(asRoot.code, asRoot.stderr).toBe(0);
    const releases = join(kept, ".out.velodata", "releases");
    const [rootsRelease] = await readdir(releases);
    const again = await runAsNobody(args);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(
      `warning: ${join(releases, rootsRelease as string)} cannot be removed by this process (it belongs to user 0, this process runs as user ${NOBODY}): a velodata command run as another user wrote it; remove it as that user (rm -r), and run velodata's commands on this tree as the user that keeps it`,
    );
    // Said by the cron refresh too, each minute until it is gone.
    const refreshed = await runAsNobody([
      "refresh",
      ...["--source", source, "--state", join(source, "states.json"), "--out", out],
    ]);
    expect(refreshed.code, refreshed.stderr).toBe(0);
    expect(refreshed.stderr).toContain(`${rootsRelease} cannot be removed by this process`);
  });
});
