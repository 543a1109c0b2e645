// The tree is public data that a web server reads as a user of its own (nginx's workers run as
// www-data): its files and folders are made readable by all, whatever the umask says.
import { isMainThread } from "node:worker_threads";

/**
 * Lets the files and folders this process creates be read (and the folders entered) by every
 * user, keeping the umask's other bits: a hardened one (027, 077) otherwise made the store's
 * folders closed to nginx, which then handed every request, public files too, to velodata serve,
 * and answered 503 for all of them while serve was down. Writing is never allowed wider than the
 * umask allowed it; the keys file sets its own mode (0600). Only the main thread may change the
 * umask, which the worker threads and child processes share.
 */
export function letAllReadTree(): void {
  if (!isMainThread) return;
  const umask = process.umask(0o022);
  process.umask(umask & 0o022);
}
