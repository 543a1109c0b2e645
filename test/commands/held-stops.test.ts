// Stops held back by work that must not be cut short (said-when-stopped.ts): a held stop is said
// and raised when the work is released, and dropped when the work failed (its error says what it
// left). Each case in a process of its own, which the stop ends.
import { spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers.js";

const MODULE = JSON.stringify(
  new URL("../../dist/commands/said-when-stopped.js", import.meta.url).href,
);

/** Runs `then` (release or drop) after a SIGTERM that came while held; what the process did. */
async function heldThen(then: "release" | "drop") {
  const script = join(await tempDir(), "held.mjs");
  await writeFile(
    script,
    `const { heldStops } = await import(${MODULE});
    const stops = heldStops(() => "what it leaves");
    stops.hold();
    const came = new Promise((resolve) => process.once("SIGTERM", resolve));
    const alive = setInterval(() => {}, 60_000); // a signal's arrival keeps no process alive
    process.kill(process.pid, "SIGTERM");
    await came;
    clearInterval(alive);
    process.stdout.write("held\\n");
    stops.${then}();
    stops.forget();
    process.stdout.write("went on\\n");\n`,
  );
  const run = spawnSync(process.execPath, [script], { encoding: "utf8" });
  return { signal: run.signal, status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("held stops", () => {
  it("say and raise a stop that came while held once released", async () => {
    expect(await heldThen("release")).toEqual({
      signal: "SIGTERM",
      status: null,
      stdout: "held\n",
      stderr: "velodata: SIGTERM: what it leaves\n",
    });
  });

  it("drop a stop that came while held when the work failed", async () => {
    expect(await heldThen("drop")).toEqual({
      signal: null,
      status: 0,
      stdout: "held\nwent on\n",
      stderr: "",
    });
  });
});
