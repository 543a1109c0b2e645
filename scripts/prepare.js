// npm's prepare step: compiles src/ into dist/ with TypeScript and the type definitions, which are
// dev dependencies. An install that leaves those out (npm ci --omit=dev, NODE_ENV=production, a
// server's habit) is said as such, with what to run, rather than as TypeScript's own errors.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL("..", import.meta.url));
const NEEDED = ["typescript", "@types/node"];

const missing = NEEDED.filter((name) => {
  try {
    require.resolve(`${name}/package.json`);
    return false;
  } catch {
    return true;
  }
});
if (missing.length > 0) {
  process.stderr.write(
    `velodata: cannot compile itself: ${missing.join(" and ")} ${missing.length === 1 ? "is" : "are"} not installed in ${root}node_modules (dev dependencies, left out by npm ci --omit=dev or NODE_ENV=production); ` +
      "velodata compiles src/ into dist/ as it installs: run npm ci with its dev dependencies (npm ci --include=dev)\n",
  );
  process.exit(1);
}
const tsc = require.resolve("typescript/bin/tsc");
const compiled = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
  cwd: root,
  stdio: "inherit",
});
process.exit(compiled.status ?? 1);
