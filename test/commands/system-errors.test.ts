// System conditions read as what they are, with what to do, never as "internal error".
import { spawn } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { mkdir, rm, symlink, truncate, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  BIN,
  besidesFixtureWarning,
  FIXTURES,
  fixtureCopy,
  runCli,
  runShell,
  tempDir,
} from "../helpers.js";

/** A port some other process holds for the duration of `use`. */
async function withBusyPort<T>(use: (port: number) => Promise<T>): Promise<T> {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
  try {
    return await use((holder.address() as { port: number }).port);
  } finally {
    holder.close();
  }
}

function runWithEnv(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    // The timeout only ends a command that should have stopped by itself, so it cannot outlive
    // the test (SIGKILL: such a command may not heed a polite signal either).
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...env },
      timeout: 20_000,
      killSignal: "SIGKILL",
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe("system errors", () => {
  it("says the port is in use and how to choose another (serve, and PORT for preview)", async () => {
    await withBusyPort(async (port) => {
      const keys = join(await tempDir(), "keys.json");
      const served = await runCli([
        "serve",
        "--source",
        FIXTURES,
        "--keys",
        keys,
        "--port",
        String(port),
      ]);
      // Said before the source is read: none of its warnings first.
      expect([served.code, served.stderr]).toEqual([
        1,
        `velodata: port ${port} is in use: pass --port or set PORT to a free port\n`,
      ]);
      const out = join(await tempDir(), "out");
      expect((await runCli(["build", "--source", FIXTURES, "--out", out])).code).toBe(0);
      const previewed = await runWithEnv(["preview", "--out", out], { PORT: String(port) });
      expect(previewed.code).toBe(1);
      expect(previewed.stderr).toBe(
        `velodata: port ${port} is in use: pass --port or set PORT to a free port\n`,
      );
    });
  });

  it("says a host cannot be bound", async () => {
    const keys = join(await tempDir(), "keys.json");
    const result = await runCli([
      "serve",
      "--source",
      FIXTURES,
      "--keys",
      keys,
      "--port",
      "0",
      "--host",
      "192.0.2.1",
    ]);
    expect([result.code, result.stderr]).toEqual([
      1,
      "velodata: cannot listen on 192.0.2.1: that address is not one of this machine's; pass --host\n",
    ]);
  });

  it("stops serve when its --out may not be replaced, leaving nothing listening", async () => {
    const dir = await tempDir();
    const out = join(dir, "site");
    await mkdir(out);
    await writeFile(join(out, "index.html"), "someone else's page");
    const args = ["serve", "--source", FIXTURES, "--keys", join(dir, "keys.json")];
    const result = await runWithEnv([...args, "--port", "0", "--simulate", "--out", out], {});
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`refusing to replace ${out}: it is not empty`);
    expect(result.stderr).not.toContain("internal error");
    // Before the source is read: none of its warnings.
    expect(besidesFixtureWarning(result.stderr)).toBe(result.stderr);
  });

  it("says a folder cannot be made for --out, and stops", async () => {
    // /proc takes no new folder: mkdir says ENOENT there, which Node's recursive mkdir retried forever.
    const result = await runWithEnv(["build", "--source", FIXTURES, "--out", "/proc/out"], {});
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("cannot write the tree at /proc/out");
    expect(result.stderr).not.toContain("internal error");
  });

  it("refuses an --out inside another tree's served folder, which that tree's next build would delete", async () => {
    const outer = join(await tempDir(), "outer");
    expect((await runCli(["build", "--source", FIXTURES, "--out", outer])).code).toBe(0);
    const result = await runCli(["build", "--source", FIXTURES, "--out", join(outer, "inner")]);
    expect(result.code).toBe(1);
    // Found from the real path of --out's folder: the temporary folder may lie behind a symlink.
    const published = join(realpathSync(dirname(outer)), "outer");
    expect(result.stderr).toContain(
      `--out ${join(outer, "inner")} is inside the tree velodata publishes at ${published}`,
    );
    expect(existsSync(join(outer, ".inner.velodata"))).toBe(false);
  });

  it("says a path is too long for the file system", async () => {
    const out = join(await tempDir(), "o".repeat(300));
    const result = await runCli(["build", "--source", FIXTURES, "--out", out]);
    expect(result.code).toBe(1);
    expect(besidesFixtureWarning(result.stderr)).toMatch(
      /^velodata: the path .+… \(\d+ characters\) is too long for the file system: choose a shorter one\n$/,
    );
  });

  it("says a source file is a link that leads nowhere or back to itself, not that it is missing", async () => {
    const source = await fixtureCopy();
    const contracts = join(source, "contracts.json");
    await rm(contracts);
    await symlink("contracts.json", contracts);
    const looping = await runCli(["validate", "--source", source]);
    expect([looping.code, looping.stderr]).toEqual([
      1,
      `velodata: ${contracts} is a link to contracts.json that leads back to itself: fix the link\n`,
    ]);
    const states = join(source, "states-link.json");
    await symlink("gone.json", states);
    const dangling = await runCli(["validate", "--source", FIXTURES, "--state", states]);
    expect([dangling.code, dangling.stderr]).toEqual([
      1,
      `velodata: ${states} is a link to gone.json, which does not exist: fix the link\n`,
    ]);
  });

  it("reads a states file from a pipe", async () => {
    const states = join(FIXTURES, "states.json");
    const result = await runShell(
      `cat '${states}' | '${process.execPath}' '${BIN}' validate --source '${FIXTURES}' --state /dev/stdin`,
    );
    expect([result.code, besidesFixtureWarning(result.stderr)]).toEqual([0, ""]);
    expect(result.stdout).toContain("413 states");
  });

  it("refuses a states file that does not end, before it fills the memory", async () => {
    // Read to its end, /dev/zero took 7 GB in 30 s; under 3 GB of address space, a crash.
    const result = await runShell(
      `ulimit -v 3000000; '${process.execPath}' '${BIN}' validate --source '${FIXTURES}' --state /dev/zero`,
    );
    expect([result.code, besidesFixtureWarning(result.stderr)]).toEqual([
      1,
      "velodata: /dev/zero does not end: more than the 511 MB a source file can have were read from it (a device, or a pipe whose writer does not stop?): give a file\n",
    ]);
  });

  it("names a states file of gigabytes, refused before it is read", async () => {
    const states = join(await tempDir(), "states.json");
    await writeFile(states, "");
    await truncate(states, 3 * 2 ** 30); // holes: no disk used
    const result = await runCli(["validate", "--source", FIXTURES, "--state", states]);
    expect([result.code, besidesFixtureWarning(result.stderr)]).toEqual([
      1,
      `velodata: ${states} is 3072 MB, more than the 511 MB a source file can have: split it\n`,
    ]);
  });

  it("names the file when --out is a file", async () => {
    const out = join(await tempDir(), "out");
    await writeFile(out, "not a folder");
    const result = await runCli(["build", "--source", FIXTURES, "--out", out]);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain("internal error");
    expect(result.stderr).toContain(out);
  });
});
