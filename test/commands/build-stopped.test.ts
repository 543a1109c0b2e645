// A build stopped by SIGINT or SIGTERM says what it leaves, then ends as the signal ends it.
import { execFileSync } from "node:child_process";
import { existsSync, readlinkSync } from "node:fs";
import { open, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { BIN, FIXTURES, runCli, startedProcess, tempDir } from "../helpers.js";

/** A build under way: it waits on `pipe`, its states file, for the writer this opens. */
async function blockedBuild(pipe: string, out: string) {
  const build = startedProcess(process.execPath, [
    BIN,
    "build",
    ...["--source", FIXTURES, "--state", pipe, "--out", out],
  ]);
  return { build, writer: await open(pipe, "w") };
}

describe("a build stopped by a signal", () => {
  it("says the tree served is unchanged, and ends as SIGINT or SIGTERM ends a process", async () => {
    const dir = await tempDir();
    const out = join(dir, "out");
    expect((await runCli(["build", "--source", FIXTURES, "--out", out])).code).toBe(0);
    const served = readlinkSync(out);
    // A states file that is a pipe: the build is under way once it opens it to read.
    const pipe = join(dir, "states.pipe");
    execFileSync("mkfifo", [pipe]);
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      const { build, writer } = await blockedBuild(pipe, out);
      try {
        build.child.kill(signal);
        const ended = await build.ended;
        expect([ended.code, ended.signal]).toEqual([null, signal]);
        expect(ended.stderr).toBe(
          `velodata: ${signal}: build stopped; the tree served at ${out} is unchanged (the next build or refresh removes what this one left)\n`,
        );
      } finally {
        await writer.close();
      }
      expect(readlinkSync(out)).toBe(served);
    }
  });

  it("says nothing was published where no tree was served before", async () => {
    const dir = await tempDir();
    const out = join(dir, "out");
    const pipe = join(dir, "states.pipe");
    execFileSync("mkfifo", [pipe]);
    const { build, writer } = await blockedBuild(pipe, out);
    try {
      build.child.kill("SIGTERM");
      const ended = await build.ended;
      expect(ended.stderr).toBe(
        `velodata: SIGTERM: build stopped; nothing published at ${out} (the next build or refresh removes what this one left)\n`,
      );
    } finally {
      await writer.close();
    }
    expect(existsSync(out)).toBe(false);
  });

  it("says the new tree is served once the build has switched to it, told by the disk at once", async () => {
    // A build past its switch: a stand-in thread that replaces the published link as a build's
    // switch does (a new link renamed over it), says nothing to the main thread, and stays.
    const dir = await tempDir();
    const out = join(dir, "out");
    expect((await runCli(["build", "--source", FIXTURES, "--out", out])).code).toBe(0);
    const dist = (module: string) =>
      JSON.stringify(new URL(`../../dist/commands/${module}.js`, import.meta.url).href);
    const switched = join(dir, "switched.mjs");
    await writeFile(
      switched,
      `import { readlinkSync, renameSync, symlinkSync, writeSync } from "node:fs";
      const out = ${JSON.stringify(out)};
      symlinkSync(readlinkSync(out), out + ".new");
      renameSync(out + ".new", out);
      writeSync(1, "switched\\n");
      setInterval(() => {}, 60_000);\n`,
    );
    // A file, not --input-type: the thread would inherit that flag, refused for a file.
    const main = join(dir, "main.mjs");
    await writeFile(
      main,
      `const { runInThread } = await import(${dist("command-thread")});
      const { buildStopped } = await import(${dist("build-stopped")});
      const startedAt = Date.now();
      process.exitCode = await runInThread([], {
        stopped: () => buildStopped(${JSON.stringify(out)}, startedAt),
        entry: new URL(${JSON.stringify(pathToFileURL(switched).href)}),
      });`,
    );
    const build = startedProcess(process.execPath, [main]);
    try {
      // Or its end, should the stand-in fail: the assertions below then say how.
      await Promise.race([
        build.ended,
        new Promise<void>((resolve) => {
          const check = () => build.stdout().includes("switched\n") && resolve();
          build.child.stdout.on("data", check);
        }),
      ]);
      build.child.kill("SIGTERM");
      const ended = await build.ended;
      expect([ended.code, ended.signal]).toEqual([null, "SIGTERM"]);
      expect(ended.stderr).toBe(
        `velodata: SIGTERM: build stopped after its switch; the new tree at ${out} is served whole (the release it replaced is removed by a process of its own, or by the next build or refresh)\n`,
      );
    } finally {
      build.child.kill("SIGKILL");
    }
  });
});
