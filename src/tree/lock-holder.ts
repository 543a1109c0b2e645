// Whether a lock's holder may still be at work: its pid lives and runs velodata, as far as the
// system can tell.
import { readFileSync } from "node:fs";
import { basename } from "node:path";

// Longer than any build or refresh takes, the removal of what a build replaced included (done
// after the build by a process of its own; a million stations on a slow disk: ~10 minutes). Also
// how long a refresh leaves a folder in `removing/` to the remover that may still be at it.
export const LONGEST_WRITE_MS = 3_600_000;

/**
 * Whether a velodata process may hold `pid`'s lock, made `ageMs` ago: the pid lives, and is not
 * another program's in a lock older than any write. A younger lock is kept whatever the pid runs
 * here, in case it is a live writer's the command line cannot tell (run by another name). Writers
 * in other pid namespaces are not told apart at all (docs/tree-on-disk.md asks for one).
 */
export function isRunning(pid: number, ageMs = 0): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  return ageMs <= LONGEST_WRITE_MS || !isAnotherProgram(pid);
}

/**
 * Whether a server may hold `pid`'s mark: it lives. Its mark is as old as the server has run, so
 * its age says nothing: a dead server's pid given to another program keeps it until removed by
 * hand (the refusal names the file).
 */
export const isServing = (pid: number): boolean => isRunning(pid);

/**
 * On Linux, a pid whose command line names neither node nor velodata: the lock's holder died (the
 * kernel killed it, the machine restarted) and its pid went to another program, which would
 * otherwise hold the tree forever. Where /proc cannot tell, it may be ours.
 */
function isAnotherProgram(pid: number): boolean {
  let argv: string[];
  try {
    argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  } catch {
    return false;
  }
  return !argv.some((arg) => /node|velodata/i.test(basename(arg)));
}
