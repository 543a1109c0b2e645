// A named pipe as a source file: read when a program writes it, refused when none comes, and never
// an open left waiting behind (it would keep a cron refresh's process from ending).
import { execFileSync } from "node:child_process";
import { readdirSync, readlinkSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readBounded } from "../../src/source/bounded-read.js";
import { NoWriter } from "../../src/source/pipe-open.js";
import { tempDir } from "../helpers.js";

async function namedPipe(): Promise<string> {
  const path = join(await tempDir(), "states.fifo");
  execFileSync("mkfifo", [path]);
  return path;
}

/** This process's open files that are `path`. */
const openedHere = (path: string): string[] =>
  readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false; // closed meanwhile
    }
  });

describe("a named pipe as a source file", () => {
  it("is read whole once a program opens it for writing", async () => {
    const path = await namedPipe();
    const reading = readBounded(path, 5_000);
    // The writer's open ends once the reader's is there, as a feed's program would find it.
    const writer = await open(path, "w");
    await writer.write('{"states":[]}');
    await writer.close();
    expect((await reading).toString()).toBe('{"states":[]}');
  });

  it("is NoWriter when no program opens it for writing in time, with no open left waiting", async () => {
    const path = await namedPipe();
    const refused = await readBounded(path, 200).catch((cause: unknown) => cause);
    expect(refused).toBeInstanceOf(NoWriter);
    expect((refused as NoWriter).seconds).toBe(0.2);
    expect(openedHere(path)).toEqual([]);
  });
});
