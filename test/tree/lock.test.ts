// One writer per tree, even when several start at the same moment or take over a dead one's lock.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { keepTree, takeLock } from "../../src/tree/lock.js";
import { createLock, lockOwner, takeOver } from "../../src/tree/lock-file.js";
import { tempDir } from "../helpers.js";
import { deadPid, liveNodeProcess } from "./tree-helpers.js";

// Compiled by `npm test`'s build: each contender is a process of its own, as two cron runs are.
const LOCK_MODULE = new URL("../../dist/tree/lock.js", import.meta.url).href;

/**
 * A contender: gets a start time on stdin, tries the lock at that instant, holds it `holdMs`, and
 * logs what it did.
 */
function contender(store: string, log: string, holdMs: number): ChildProcess {
  const script = `
    import { appendFileSync } from "node:fs";
    const { takeLock } = await import(${JSON.stringify(LOCK_MODULE)});
    const note = (what) => appendFileSync(${JSON.stringify(log)}, what + " " + process.pid + "\\n");
    process.stdout.write("ready\\n");
    process.stdin.once("data", (line) => {
      // All at one instant: the start time the parent sent, waited for on the clock.
      const start = Number(String(line));
      while (performance.timeOrigin + performance.now() < start);
      let unlock;
      try {
        unlock = takeLock({ store: ${JSON.stringify(store)}, published: "out" });
      } catch {
        note("busy");
        process.exit(0);
      }
      note("got");
      setTimeout(() => { note("rel"); unlock(); process.exit(0); }, ${holdMs});
    });`;
  return spawn(process.execPath, ["--input-type=module", "-e", script], {
    stdio: ["pipe", "pipe", "inherit"],
  });
}

/** The most holders at once, from the log's order (a release is noted before the lock goes). */
function mostHolders(log: string): number {
  let holders = 0;
  let most = 0;
  for (const line of log.split("\n")) {
    if (line.startsWith("got")) most = Math.max(most, ++holders);
    if (line.startsWith("rel")) holders--;
  }
  return most;
}

async function race(store: string, before: () => Promise<void>): Promise<string> {
  const log = join(store, "..", `log-${Math.random()}`);
  await writeFile(log, "");
  await before();
  const children = Array.from({ length: 4 }, () => contender(store, log, 100));
  await Promise.all(children.map((child) => once(child.stdout as NodeJS.ReadableStream, "data")));
  const start = Date.now() + 50;
  for (const child of children) child.stdin?.write(`${start}\n`);
  await Promise.all(children.map((child) => once(child, "exit")));
  return readFile(log, "utf8");
}

describe("the tree's lock", () => {
  it("is held by one process at most when several start at once, on no lock or a dead one's", async () => {
    const store = join(await tempDir(), ".out.velodata");
    await mkdir(store);
    const lock = join(store, "lock");
    for (let round = 0; round < 8; round++) {
      const fresh = await race(store, async () => {});
      expect(mostHolders(fresh), fresh).toBe(1);
      const stale = await race(store, () => writeFile(lock, String(deadPid())));
      expect(mostHolders(stale), stale).toBe(1);
    }
    expect(existsSync(lock)).toBe(false);
  }, 60_000);

  it("counts an empty lock as held (it may be an older velodata's, being written), unless old", async () => {
    const store = join(await tempDir(), ".out.velodata");
    await mkdir(store);
    const lock = join(store, "lock");
    await writeFile(lock, "");
    expect(() => takeLock({ store, published: "out" } as never)).toThrow(
      "out is being written by another velodata process (its lock names no pid)",
    );
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    takeLock({ store, published: "out" } as never)();
    expect(existsSync(lock)).toBe(false);
  });

  it("is made whole, and taken over only while it is still the lock found stale", async () => {
    const lock = join(await tempDir(), "lock");
    expect(createLock(lock)).toBe(true);
    expect(await readFile(lock, "utf8")).toBe(String(process.pid));
    expect(createLock(lock)).toBe(false);
    const dead = deadPid();
    await writeFile(lock, String(dead));
    // Another process took it over between our look and our takeover: its lock stays.
    expect(takeOver(lock, { pid: dead + 1, ageMs: 0 })).toBe(false);
    expect(lockOwner(lock)).toEqual({ pid: dead, ageMs: expect.any(Number) });
    // A takeover's own lock left by a killed process stops no later one.
    await writeFile(`${lock}.takeover`, String(dead));
    const old = new Date(Date.now() - 60_000);
    await utimes(`${lock}.takeover`, old, old);
    expect(takeOver(lock, { pid: dead, ageMs: 0 })).toBe(true);
    expect(lockOwner(lock)).toEqual({ pid: process.pid, ageMs: expect.any(Number) });
    expect(existsSync(`${lock}.takeover`)).toBe(false);
  });
});

describe("a tree kept by a server (keepTree)", () => {
  it("is kept by one server of a process at a time, and let go when it stops", async () => {
    const store = join(await tempDir(), ".out.velodata");
    await mkdir(store);
    const layout = { store, published: "out", releases: join(store, "releases") };
    const letGo = keepTree(layout);
    // A second server of the same process: the pid is the same, the tree is not its to keep.
    expect(() => keepTree(layout)).toThrow(/out is kept by another velodata serve \(pid \d+\)/);
    // This process's own writes (the server's refreshes) go on.
    takeLock(layout)();
    letGo();
    keepTree(layout)();
  });

  it("takes over the mark of a dead server, and names the mark to remove when its pid lives on", async () => {
    const store = join(await tempDir(), ".out.velodata");
    await mkdir(store);
    const layout = { store, published: "out", releases: join(store, "releases") };
    const mark = join(store, "kept-by-serve");
    await writeFile(mark, String(deadPid()));
    takeLock(layout)(); // a dead server's mark keeps nothing
    keepTree(layout)();
    // A node process that is alive but no server is taken as one: the message says which file to
    // remove.
    await writeFile(mark, String(process.ppid));
    expect(() => takeLock(layout)).toThrow(
      expect.objectContaining({ details: [expect.stringContaining(`remove ${mark}`)] }),
    );
    // The kept tree is seen under the writer's lock, which the refused writer lets go.
    expect(existsSync(join(store, "lock"))).toBe(false);
  });

  it("is taken over when its pid went to another program (a killed writer's, after a restart)", async () => {
    const store = join(await tempDir(), ".out.velodata");
    await mkdir(store);
    const layout = { store, published: "out", releases: join(store, "releases") };
    const lock = join(store, "lock");
    const other = spawn("sleep", ["30"], { stdio: "ignore" });
    const hoursAgo = new Date(Date.now() - 2 * 3_600_000);
    try {
      // Younger than any write: it may be a writer's in another pid namespace (a container
      // sharing the tree), where the same number is another process. It holds.
      await writeFile(lock, String(other.pid));
      expect(() => takeLock(layout)).toThrow(/being written by another velodata process/);
      // Older than any write takes: a dead writer's pid given to another program.
      await utimes(lock, hoursAgo, hoursAgo);
      takeLock(layout)();
      // A server's mark is as old as the server: its age says nothing of it.
      const mark = join(store, "kept-by-serve");
      await writeFile(mark, String(other.pid));
      await utimes(mark, hoursAgo, hoursAgo);
      expect(() => takeLock(layout)).toThrow(/is kept by velodata serve/);
      await rm(mark);
      // A node process is taken as velodata's, however old its lock.
      const node = liveNodeProcess();
      onTestFinished(node.stop);
      await writeFile(lock, String(node.pid));
      await utimes(lock, hoursAgo, hoursAgo);
      expect(() => takeLock(layout)).toThrow(/being written by another velodata process/);
    } finally {
      other.kill();
    }
  });
});
