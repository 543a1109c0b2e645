// Lines in systemd's journal (the server's log, a command's warnings and errors): each starts with
// its priority as `<N>` (sd-daemon(3)), which journald reads off the line, so that `journalctl -p
// warning` shows what an operator must see among tens of thousands of request lines. Elsewhere (a
// terminal, a file, a pipe) lines stay as they are.
import { fstatSync } from "node:fs";
import type { Severity } from "./log.js";

/** The syslog priorities journald reads: err (3), warning (4), info (6). */
export const PRIORITY_PREFIX: Record<Severity, string> = {
  error: "<3>",
  warning: "<4>",
  info: "<6>",
};

/**
 * Whether `fd` is connected to the journal: systemd sets JOURNAL_STREAM to the `device:inode` of
 * the stream it gives a service (systemd.exec(5)), and a descriptor that is still that stream
 * (not redirected by a wrapper script) has the same.
 */
export function writesToJournal(fd: number, env: NodeJS.ProcessEnv = process.env): boolean {
  const stream = /^(\d+):(\d+)$/.exec(env.JOURNAL_STREAM ?? "");
  if (!stream) return false;
  try {
    const { dev, ino } = fstatSync(fd, { bigint: true });
    return dev === BigInt(stream[1] as string) && ino === BigInt(stream[2] as string);
  } catch {
    return false; // a closed descriptor
  }
}
