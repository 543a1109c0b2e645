// The tree is read by a web server running as another user: readable by all whatever the umask.
import { spawnSync } from "node:child_process";
import { lstat, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, fixtureCopy, tempDir } from "../helpers.js";

/** `velodata ...args` under a hardened umask, as a root shell of a CIS-hardened server runs it. */
function underUmask077(args: readonly string[]): number | null {
  const quoted = args.map((arg) => `'${arg}'`).join(" ");
  return spawnSync("sh", ["-c", `umask 077 && exec '${process.execPath}' '${BIN}' ${quoted}`], {
    stdio: "ignore",
  }).status;
}

/** Every folder and file under `root` that other users cannot read (folders: enter). */
async function closedToOthers(root: string): Promise<string[]> {
  const closed: string[] = [];
  const entries = await readdir(root, { recursive: true });
  for (const entry of ["", ...entries]) {
    const path = join(root, entry);
    const stats = await lstat(path);
    if (stats.isSymbolicLink()) continue;
    const needed = stats.isDirectory() ? 0o005 : 0o004;
    if ((stats.mode & needed) !== needed)
      closed.push(`${entry} ${(stats.mode & 0o777).toString(8)}`);
  }
  return closed;
}

describe("the tree's modes", () => {
  it("lets every user read the tree and its store after a build and a refresh under umask 077", async () => {
    const source = await fixtureCopy();
    const folder = await tempDir();
    const out = join(folder, "out");
    expect(underUmask077(["build", "--source", source, "--out", out])).toBe(0);
    const states = join(source, "states.json");
    const text = await readFile(states, "utf8");
    await writeFile(states, text.replace("2025-02-08T16:44:06Z", "2025-02-08T16:59:00Z"));
    expect(underUmask077(["refresh", "--source", source, "--state", states, "--out", out])).toBe(0);
    // nginx's workers open the files through the store's folders (out is a link into it).
    expect(await closedToOthers(join(folder, ".out.velodata"))).toEqual([]);
  });
});
