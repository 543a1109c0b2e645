// A small file system of the test's own (a full disk, a read-only one, a mount point): a tmpfs
// mount, possible only as root with the right capability; the tests that need one are skipped
// without it.
import { execFileSync } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll } from "vitest";
import { tempDir } from "./helpers.js";

/** A tmpfs of `size` (mount's `size=`: `1m`, `600k`) mounted for the file's tests, or null. */
export async function tmpfsMount(size: string): Promise<string | null> {
  const dir = join(await tempDir(), "tmpfs");
  await mkdir(dir);
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "ignore" });
  } catch {
    return null;
  }
  afterAll(() => execFileSync("umount", [dir]));
  return dir;
}
