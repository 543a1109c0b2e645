// Headless Chromium for the browser tests (Debian's `chromium`, never a downloaded build), and sirv-cli as the plain static host.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./helpers.js";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const HAS_CHROMIUM = existsSync(CHROMIUM);
/** CI installs chromium (`.ci/run`): there a missing browser is a failure, not a skip. */
export const MUST_HAVE_CHROMIUM = Boolean(process.env.CI);

if (!HAS_CHROMIUM && !MUST_HAVE_CHROMIUM) {
  console.warn(
    `browser tests SKIPPED: no chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`,
  );
}

export const TEST_OUTPUT = join(ROOT, "test-output");

export interface StaticHost {
  url: string;
  stop(): void;
}

/** Serves `dir` with sirv-cli exactly as `npm run serve:static` does, on an ephemeral port. */
export function startSirv(dir: string): Promise<StaticHost> {
  const bin = join(ROOT, "node_modules/sirv-cli/bin.js");
  const child: ChildProcess = spawn(
    process.execPath,
    [bin, dir, "--cors", "--etag", "--dev", "--host", "127.0.0.1", "--port", "0"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  return new Promise((resolve, reject) => {
    let seen = "";
    child.stdout?.on("data", (chunk) => {
      seen += chunk;
      const found = /http:\/\/127\.0\.0\.1:(\d+)/.exec(seen);
      if (found) resolve({ url: `http://127.0.0.1:${found[1]}`, stop: () => child.kill() });
    });
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`sirv-cli exited with ${code}: ${seen}`)));
  });
}
