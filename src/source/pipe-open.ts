// Opening a source file that may be a named pipe. A reader's open of a pipe waits for a writer's:
// a FIFO given as `--state` whose program died would hold build, validate or a cron refresh for
// ever, and with it, under cron's flock, every minute after.
import { closeSync, constants, openSync, statSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";

/** How long a source read waits for a program to open a named pipe for writing: a cron minute. */
export const WRITER_WAIT_MS = 60_000;

/** No program opened the named pipe for writing within `seconds`. */
export class NoWriter extends Error {
  constructor(readonly seconds: number) {
    super(`no writer within ${seconds} s`);
  }
}

/** `path` opened for reading; a named pipe no writer opens within `waitMs` is NoWriter. */
export async function openSource(path: string, waitMs = WRITER_WAIT_MS): Promise<FileHandle> {
  // `/dev/stdin` on a pipe is one too, whose writer is there already: its open ends at once.
  if (!statSync(path, { throwIfNoEntry: false })?.isFIFO()) return open(path, "r");
  const opening = open(path, "r");
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), waitMs);
  });
  const opened = await Promise.race([opening, waited]);
  clearTimeout(timer);
  if (opened) return opened;
  // The open still waits in the thread pool, and would keep the process from ending: opening the
  // pipe for writing ourselves ends it (our reader is there, so this open does not wait).
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch (cause) {
    // The pipe removed meanwhile: nothing can end the open now, and awaiting it would wait for
    // ever. Otherwise a writer came and went (no reader left): the open has ended.
    if ((cause as NodeJS.ErrnoException).code === "ENOENT") throw new NoWriter(waitMs / 1000);
  }
  await (await opening.catch(() => undefined))?.close();
  throw new NoWriter(waitMs / 1000);
}
