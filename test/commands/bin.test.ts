// The command's entry point: a CLI that cannot load says so in one line, with what to run.
import { copyFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, runCli, tempDir } from "../helpers.js";

describe("bin/velodata.js", () => {
  it("says to run npm install where dist/ was never built, with no stack trace", async () => {
    // A space in the path: said as the folder is named, not as a URL (%20).
    const clone = join(await tempDir(), "velodata clone");
    await mkdir(clone);
    await mkdir(join(clone, "bin"));
    const bin = join(clone, "bin", "velodata.js");
    await copyFile(BIN, bin);
    const result = await runCli(["--help"], clone, {}, bin);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(
        `^velodata: not installed: Cannot find module .*; run npm install in ${escaped(clone)}/ \\(it installs the packages and builds dist/\\)\\n$`,
      ),
    );
  });

  it("runs the CLI where it is built", async () => {
    const result = await runCli(["--version"]);
    expect([result.code, result.stderr]).toEqual([0, ""]);
  });
});

/** `text` as a regular expression matching it. */
const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
