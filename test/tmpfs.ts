// A small file system of the test's own (a full disk, a read-only one, a mount point): a tmpfs
// mount, possible only as root with the right capability; the tests that need one are skipped
// without it.
import { execFileSync } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll } from "vitest";
import { tempDir } from "./helpers.js";

/**
 * A tmpfs of `size` (mount's `size=`: `1m`, `600k`) mounted for the file's tests, or null;
 * `inodes`: how many files and folders it can hold at most (mount's `nr_inodes=`).
 */
export async function tmpfsMount(size: string, inodes?: number): Promise<string | null> {
  const dir = join(await tempDir(), "tmpfs");
  await mkdir(dir);
  try {
    const options = inodes === undefined ? `size=${size}` : `size=${size},nr_inodes=${inodes}`;
    execFileSync("mount", ["-t", "tmpfs", "-o", options, "tmpfs", dir], { stdio: "ignore" });
  } catch {
    return null;
  }
  afterAll(() => execFileSync("umount", [dir]));
  return dir;
}
