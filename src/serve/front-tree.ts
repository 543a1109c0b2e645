// The tree a front server (nginx) answers from, as it says with what it hands on to this server,
// against the tree this server keeps (--out). nginx answers the station answers from its tree's
// files: a tree that no server keeps goes on serving the states it was last written with, while
// /status, asked through nginx, said all was well. Now /status says `ok: false` and which tree,
// and the log says it once, with what to change.
import { realpathSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { basename, dirname, join, resolve } from "node:path";
import type { Log } from "../log.js";
import { FRONT_TREE_HEADER } from "../routes/key-check.js";
import { layoutOf } from "../tree/layout.js";
import { fromThisMachine } from "./client-address.js";
import type { Live } from "./live.js";

const HEADER = FRONT_TREE_HEADER.toLowerCase();

// Trees told apart at most: a server has one front, or an old configuration beside the new.
const TREES_KEPT = 16;

/**
 * Looks at each request for the front server's tree: shown in `live.front` whenever it changes,
 * logged the first time each tree comes (two configurations handing on to the same server, in
 * turn, say each once, not at each turn). Taken only from a peer on this machine, as
 * X-Forwarded-For is: anyone elsewhere can send the header.
 */
export function watchFrontTree(
  out: string | undefined,
  live: Live,
  log: Log,
): (request: IncomingMessage) => void {
  const kept = out === undefined ? null : placeOf(out);
  // Each tree told, and whether this server keeps it: worked out, and said, once.
  const verdicts = new Map<string, boolean>();
  let told: string | undefined;
  return (request) => {
    const tree = request.headers[HEADER];
    if (typeof tree !== "string" || tree === told || !fromThisMachine(request)) return;
    told = tree;
    const known = verdicts.get(tree);
    if (known !== undefined) {
      live.front = { tree, kept: known };
      return;
    }
    const isKept = kept !== null && placeOf(tree) === kept;
    if (verdicts.size >= TREES_KEPT) verdicts.clear();
    verdicts.set(tree, isKept);
    live.front = { tree, kept: isKept };
    if (isKept) {
      log(`front server: answers from ${tree}, the tree this server keeps`);
      return;
    }
    const remedy =
      out === undefined
        ? `start velodata serve with --out ${tree}`
        : `start velodata serve with --out ${tree}, or give the front server the configuration of ${out} (velodata nginx --tree ${out})`;
    log(
      `front server: answers from ${tree}, which this server does not keep (${out === undefined ? "it has no --out" : `it keeps ${out}`}): the front serves the station answers as that tree last had them, and /status says ok: false; ${remedy}`,
      "warning",
    );
  };
}

/**
 * Where a tree is published, the same however it is named: relative or absolute, through the
 * operator's symlinks to it or to a folder above it.
 */
function placeOf(tree: string): string {
  try {
    const { published } = layoutOf(tree);
    return join(realpathSync(dirname(published)), basename(published));
  } catch {
    // A folder that is not there (yet) or a loop of links: named as given.
    return resolve(tree);
  }
}
