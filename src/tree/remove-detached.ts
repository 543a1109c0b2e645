// The release a build replaced, removed by a process of its own that outlives the build: the new
// tree is served from the switch on, and waiting for its predecessor's unlink calls (~200,000
// files at 100,000 stations, 0.35-1.04 s more on tmpfs; ~2 million at a million stations, a build
// of 222.96 s on disk against 111.93 s, the removal going on 96 s after it) kept the command from
// returning with nothing left for it to do.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { removeInBackground } from "./remove-in-background.js";

// Compiled beside this module; absent when running from the TypeScript sources (tests).
const REMOVER = new URL("./remove-process.js", import.meta.url);

/**
 * Removes `folders` from a detached process (its own session: a terminal's Ctrl-C to the build
 * does not stop it), and returns its pid at once; where it cannot be started, removes them from
 * this process's threads and returns their promise. A removal cut short (the process killed, as
 * a systemd unit's end kills what it started) leaves folders the next build removes, or a
 * refresh once an hour old.
 */
export function removeDetached(folders: readonly string[]): number | Promise<void> {
  if (folders.length === 0) return Promise.resolve();
  if (existsSync(REMOVER)) {
    try {
      const remover = spawn(process.execPath, [fileURLToPath(REMOVER), ...folders], {
        detached: true,
        stdio: "ignore",
      });
      remover.once("error", () => {}); // what is left goes at the next build or refresh
      remover.unref();
      if (remover.pid !== undefined) return remover.pid;
    } catch {}
  }
  return removeInBackground(folders);
}
