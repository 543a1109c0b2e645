#!/usr/bin/env node
// Loads the compiled CLI (npm install compiles src/ into dist/). Loaded here rather than imported
// at the top, so that a CLI that cannot load (not installed or built yet, too few open files
// allowed) is said in one line, not as a stack trace.
import { fileURLToPath } from "node:url";

let main;
try {
  ({ main } = await import("../dist/cli.js"));
} catch (error) {
  const notInstalled = error?.code === "ERR_MODULE_NOT_FOUND";
  process.stderr.write(
    notInstalled
      ? `velodata: not installed: ${error.message.split("\n")[0]}; run npm install in ${fileURLToPath(new URL("..", import.meta.url))} (it installs the packages and builds dist/)\n`
      : `velodata: cannot load itself: ${error?.message ?? error}\n`,
  );
  process.exit(1);
}

await main(process.argv);
