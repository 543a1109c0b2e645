// nginx tags a file of the tree "mtime-size", its mtime in whole seconds, and says Last-Modified in
// seconds too: a file rewritten in the second its bytes before were written, at the same size (a
// station whose bikes went 11 → 10 and stands 29 → 30), would keep its tag, and a client holding
// the old bytes would be told 304 until the file changes again. So a writer (a build, a refresh,
// `serve --out` refreshing twice in a second on a SIGHUP) writes in a later second than the last
// run: the manifest it sealed, written after every file of its, is the newest of them.
import { statSync } from "node:fs";
import { setTimeout } from "node:timers/promises";
import { currentRelease, releasePaths, type TreeLayout } from "./layout.js";

/** Resolves once the clock is past the second the tree's manifest was written in. */
export async function afterLastWriteSecond(layout: TreeLayout): Promise<void> {
  const release = currentRelease(layout);
  if (release === null) return;
  let written: number;
  try {
    written = statSync(releasePaths(layout, release).manifest).mtimeMs;
  } catch {
    return; // no manifest: nothing was sealed
  }
  const wait = (Math.floor(written / 1000) + 1) * 1000 - Date.now();
  // More than a second ahead: the clock was set back, and waiting would not be a moment's.
  if (wait > 0 && wait <= 1000) await setTimeout(wait);
}
