// A cron refresh after velodata itself changed (an upgrade: another build of its code, other
// dependencies) renders the static answers again once, though the static source is unchanged.
import { cp, readFile, symlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixtureCopy, ROOT, runCli, tempDir } from "../helpers.js";

const FAST = "static source unchanged: only the changed stations rendered";

/** A velodata of its own, made of this one's files (those its package ships, and its pins). */
async function install(): Promise<string> {
  const at = join(await tempDir(), "velodata");
  const { files } = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as {
    files: string[];
  };
  for (const part of files) await cp(join(ROOT, part), join(at, part), { recursive: true });
  for (const pin of ["package.json", "package-lock.json"]) await cp(join(ROOT, pin), join(at, pin));
  await symlink(join(ROOT, "node_modules"), join(at, "node_modules"));
  return at;
}

/** `velodata ...args` of that installation. */
const run = (velodata: string, args: readonly string[]) =>
  runCli(args, ROOT, {}, join(velodata, "bin/velodata.js"));

describe("a cron refresh after an upgrade of velodata", () => {
  it("renders every static answer again once, then takes its fast path again", async () => {
    const velodata = await install();
    const source = await fixtureCopy();
    const out = join(await tempDir(), "out");
    expect((await run(velodata, ["build", "--source", source, "--out", out])).code).toBe(0);
    const states = join(source, "states.json");
    const original = await readFile(states, "utf8");
    const refreshAt = async (lastUpdate: string) => {
      await writeFile(states, original.replace("2025-02-08T16:44:06Z", lastUpdate));
      const result = await run(velodata, [
        "refresh",
        "--source",
        source,
        "--state",
        states,
        "--out",
        out,
      ]);
      expect(result.code, result.stderr).toBe(0);
      return result.stdout;
    };
    expect(await refreshAt("2025-02-08T16:59:00Z")).toContain(FAST);
    // Another build of its code: `tsc` writes every module again.
    const later = new Date(Date.now() + 60_000);
    await utimes(join(velodata, "dist/cli.js"), later, later);
    expect(await refreshAt("2025-02-08T17:00:00Z")).not.toContain(FAST);
    expect(await refreshAt("2025-02-08T17:01:00Z")).toContain(FAST);
    // Other dependencies, pinned by the lock file.
    await utimes(join(velodata, "package-lock.json"), later, new Date(later.getTime() + 1000));
    expect(await refreshAt("2025-02-08T17:02:00Z")).not.toContain(FAST);
    expect(await refreshAt("2025-02-08T17:03:00Z")).toContain(FAST);
    // Other GBFS schemas, which the OpenAPI document embeds, read from the package at run time.
    const schema = join(velodata, "src/model/gbfs-schemas/v3.0/station_status.json");
    await utimes(schema, later, new Date(later.getTime() + 2000));
    expect(await refreshAt("2025-02-08T17:04:00Z")).not.toContain(FAST);
  });
});
