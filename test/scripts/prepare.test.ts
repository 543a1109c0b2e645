// npm's prepare step: an install without dev dependencies says what to run, not TypeScript's errors.
import { copyFile, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runCli, tempDir } from "../helpers.js";

describe("scripts/prepare.js", () => {
  it("says that dev dependencies are needed where npm ci --omit=dev left them out", async () => {
    const clone = join(await tempDir(), "velodata");
    await mkdir(join(clone, "scripts"), { recursive: true });
    const prepare = join(clone, "scripts", "prepare.js");
    await copyFile(join(ROOT, "scripts", "prepare.js"), prepare);
    await writeFile(join(clone, "package.json"), '{"type": "module"}');
    // As --omit=dev leaves it: the packages the CLI runs on, none of those that compile it.
    await mkdir(join(clone, "node_modules", "zod"), { recursive: true });
    const result = await runCli([], clone, {}, prepare);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `velodata: cannot compile itself: typescript and @types/node are not installed in ${clone}/node_modules (dev dependencies, left out by npm ci --omit=dev or NODE_ENV=production); ` +
        "velodata compiles src/ into dist/ as it installs: run npm ci with its dev dependencies (npm ci --include=dev)\n",
    );
  });
});
