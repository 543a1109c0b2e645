// `velodata nginx` through the CLI: the configuration on stdout, clear errors for what cannot work.
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers.js";

let out: string;
beforeAll(async () => {
  out = join(await tempDir(), "out");
  expect((await runCli(["build", "--source", "fixtures", "--out", out])).code).toBe(0);
});

describe("velodata nginx", () => {
  it("prints a configuration for the http context serving the tree, with the upstream and options", async () => {
    const result = await runCli([
      "nginx",
      "--tree",
      out,
      "--upstream",
      "http://127.0.0.1:8080",
      "--listen",
      "127.0.0.1:8081",
      "--cache-dir",
      "/tmp/velodata-keys",
      "--no-brotli",
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`root "${out}";`);
    expect(result.stdout).toContain("server 127.0.0.1:8080;");
    expect(result.stdout).toContain("listen 127.0.0.1:8081;");
    expect(result.stdout).toContain('proxy_cache_path "/tmp/velodata-keys" ');
    expect(result.stdout).not.toContain("brotli_static on;");
  });

  it("says plainly when there is no tree, the upstream is no address, or keys would be trusted too long", async () => {
    const missing = await runCli([
      "nginx",
      "--tree",
      "/nonexistent/out",
      "--upstream",
      "http://127.0.0.1:8080",
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no velodata tree at /nonexistent/out");
    const path = await runCli(["nginx", "--tree", out, "--upstream", "http://127.0.0.1:8080/api"]);
    expect(path.stderr).toContain("must be http://HOST:PORT, with no path");
    const secret = "s3cr3t-pass";
    const credentials = await runCli([
      "nginx",
      "--tree",
      out,
      "--upstream",
      `http://user:${secret}@127.0.0.1:8080`,
    ]);
    expect([credentials.code, credentials.stderr]).toEqual([
      1,
      "velodata: --upstream must not hold credentials (user:password@)\n  velodata serve is reached without them: give http://HOST:PORT\n",
    ]);
    // The tree and a good upstream, with the options under test.
    const nginxWith = (...options: string[]) =>
      runCli(["nginx", "--tree", out, "--upstream", "http://127.0.0.1:8080", ...options]);
    const long = await nginxWith("--key-cache", "30");
    expect(long.stderr).toContain("--key-cache must be at most 10 seconds");
    const listen = (address: string) => nginxWith("--listen", address);
    const word = await listen("abc");
    expect(word.code).toBe(1);
    expect(word.stderr).toContain("must be PORT or ADDR:PORT");
    expect((await listen("99999")).code).toBe(1);
    const ipv6 = await listen("[::]:8081");
    expect(ipv6.stdout).toContain("listen [::]:8081;");
    const variable = await nginxWith("--access-log", "/var/log/nginx/$host.log");
    expect(variable.code).toBe(1);
    expect(variable.stderr).toContain('--access-log "/var/log/nginx/$host.log": nginx reads "$"');
    for (const result of [path, long, word, variable])
      expect(result.stderr).not.toContain("internal error");
  });
});
