// serve reads its static source at start only: a restart publishes an edit of it. An edit is said
// when the next refresh sees it, once, rather than left for someone to wonder why a station added
// an hour ago still answers 404.
import type { Log } from "../log.js";
import { staticSourceFingerprint } from "../source/source-fingerprint.js";

/**
 * A check to run after each refresh: says, once per new content, that the static source in `dir`
 * is no longer the one served. Taken before the source is read: an edit made meanwhile is said.
 * Each check stats the files; it reads them only when they changed.
 */
export function staticSourceWatch(dir: string, log: Log): () => void {
  const served = staticSourceFingerprint(dir);
  let seen = served;
  let said = served.fingerprint;
  return () => {
    try {
      seen = staticSourceFingerprint(dir, seen);
    } catch {
      return; // a folder gone or unreadable: the server goes on with what it read
    }
    if (seen.fingerprint === said) return;
    said = seen.fingerprint;
    if (said !== served.fingerprint)
      log(
        `warning: the static source in ${dir} changed since this server started: restart it to publish the change, once \`velodata validate --source ${dir}\` finds no error in it (a server does not start on a source in error; a refresh reads the states only)`,
        "warning",
      );
  };
}
