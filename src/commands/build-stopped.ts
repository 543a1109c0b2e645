// What a build stopped by SIGINT or SIGTERM says as the process ends (command-thread.ts's
// `stopped`): nothing it wrote is served before its one switch, and the next build or refresh
// removes it.
import { lstatSync } from "node:fs";
import { layoutOf } from "../tree/layout.js";

/**
 * What the stop leaves, read from the disk when it comes: the published link is replaced at the
 * switch, so one made since `startedAt` (ms since the epoch, the command's start) is this
 * build's. Asked in the process's main thread, no word from the build's thread can come too late.
 */
export function buildStopped(out: string, startedAt: number): string {
  const link = lstatSync(layoutOf(out).published, { throwIfNoEntry: false });
  if (link?.isSymbolicLink() && link.mtimeMs >= startedAt) return stoppedAfterSwitch(out);
  return stoppedBeforeSwitch(out, link !== undefined);
}

/** Before the switch: the tree served is still the one the build was to replace, or none. */
const stoppedBeforeSwitch = (out: string, served: boolean): string =>
  `build stopped; ${served ? `the tree served at ${out} is unchanged` : `nothing published at ${out}`} (the next build or refresh removes what this one left)`;

/**
 * After it: the new tree is served whole; what was left to do is the removal of the release it
 * replaced, which a process of its own may already be doing (else the next build starts it).
 */
const stoppedAfterSwitch = (out: string): string =>
  `build stopped after its switch; the new tree at ${out} is served whole (the release it replaced is removed by a process of its own, or by the next build or refresh)`;
