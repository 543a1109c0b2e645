// `velodata nginx` through the CLI: the configuration on stdout, clear errors for what cannot work.
import {
  chmod,
  mkdir,
  readdir,
  readFile,
  stat,
  statfs,
  symlink,
  writeFile,
} from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { nginx } from "../../src/commands/nginx.js";
import { memoryOutput } from "../../src/commands/output.js";
import { BIN, memoryDir, ROOT, runCli, runShell, tempDir } from "../helpers.js";

const TMPFS = 0x01021994;

let out: string;
beforeAll(async () => {
  // Where nginx's workers (another user) reach it, as /srv is: a temporary folder is 0700.
  const folder = await tempDir();
  await chmod(folder, 0o755);
  out = join(folder, "out");
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
    // Opted out, whether the module is there or not: not told to install it.
    expect(result.stdout).toContain("    # brotli_static: left out (--no-brotli)\n");
    expect(result.stdout).not.toContain("apt install");
  });

  it("names the hosts it answers, and listens with TLS and HTTP/2 on 443 given a certificate", async () => {
    const dir = await tempDir();
    const [certificate, key] = [join(dir, "cert.pem"), join(dir, "key.pem")];
    await writeFile(certificate, "certificate");
    await writeFile(key, "key");
    const result = await runCli([
      ...["nginx", "--tree", out, "--upstream", "http://127.0.0.1:8080"],
      ...["--server-name", "api.example.org", "*.velo.example.org"],
      ...["--tls-certificate", certificate, "--tls-key", key],
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("    listen 443 ssl http2;\n");
    expect(result.stdout).toContain(`    ssl_certificate "${certificate}";\n`);
    expect(result.stdout).toContain(`    ssl_certificate_key "${key}";\n`);
    expect(result.stdout).toContain("    server_name api.example.org *.velo.example.org;\n");
    const plain = await runCli(["nginx", "--tree", out, "--upstream", "http://127.0.0.1:8080"]);
    expect(plain.stdout).toContain("    listen 80;\n");
    expect(plain.stdout).not.toContain("server_name");
    expect(plain.stdout).not.toContain("ssl");
  });

  it("warns that the distribution's default site answers on port 80 when no host is named", async () => {
    const defaultSite = join(await tempDir(), "default");
    await writeFile(defaultSite, "server { listen 80 default_server; }");
    // A key cache where nginx can make it, in memory: this test is about the default site alone.
    const cacheDir = join(await memoryDir(), "velodata");
    const asked = { tree: out, upstream: "http://127.0.0.1:8080", defaultSite, cacheDir };
    const warned = memoryOutput();
    nginx({ ...asked, output: warned });
    expect(warned.lines).toContain(
      `warning: ${defaultSite} is enabled: without --server-name, that site answers every request (nginx's welcome page); give --server-name HOST, or remove it`,
    );
    for (const other of [{ serverName: ["api.example.org"] }, { listen: "8081" }]) {
      const quiet = memoryOutput();
      nginx({ ...asked, ...other, output: quiet });
      expect(quiet.lines.filter((line) => line.startsWith("warning"))).toEqual([]);
    }
  });

  it("warns when the key cache's folder has no parent, which nginx does not make", async () => {
    const parent = join(await memoryDir(), "cache");
    const asked = { tree: out, upstream: "http://127.0.0.1:8080", serverName: ["api.example.org"] };
    const warned = memoryOutput();
    nginx({ ...asked, cacheDir: join(parent, "velodata"), output: warned });
    expect(warned.lines).toContainEqual(
      expect.stringMatching(new RegExp(`^warning: ${parent} does not exist: nginx will not start`)),
    );
    await mkdir(parent);
    const quiet = memoryOutput();
    nginx({ ...asked, cacheDir: join(parent, "velodata"), output: quiet });
    expect(quiet.lines.filter((line) => line.startsWith("warning"))).toEqual([]);
  });

  it("warns when the key cache, whose files name the keys, would be on a disk", async (context) => {
    const asked = { tree: out, upstream: "http://127.0.0.1:8080", serverName: ["api.example.org"] };
    // The project's own folder, on a disk but in a clone made in memory. Nothing is made there.
    const disk = ROOT;
    if ((await statfs(disk)).type === TMPFS) context.skip();
    const warned = memoryOutput();
    nginx({ ...asked, cacheDir: join(disk, "velodata"), output: warned, keyCache: 3 });
    expect(warned.lines).toContain(
      `warning: ${disk} is not on a memory file system (tmpfs): the key cache's files name the keys nginx checked in the last 11 s, which would reach the disk, its backups and images; give --cache-dir in one (/run on most systems, /dev/shm)`,
    );
    const quiet = memoryOutput();
    nginx({ ...asked, cacheDir: join(await memoryDir(), "velodata"), output: quiet });
    expect(quiet.lines.filter((line) => line.startsWith("warning"))).toEqual([]);
  });

  it("warns of an older velodata's key cache left on the disk, whose files name keys", async () => {
    const formerCacheDir = join(await tempDir(), "velodata");
    const asked = {
      tree: out,
      upstream: "http://127.0.0.1:8080",
      serverName: ["api.example.org"],
      cacheDir: join(await memoryDir(), "velodata"),
      formerCacheDir,
    };
    const quiet = memoryOutput();
    nginx({ ...asked, output: quiet });
    expect(quiet.lines.filter((line) => line.startsWith("warning"))).toEqual([]);
    await mkdir(formerCacheDir);
    const warned = memoryOutput();
    nginx({ ...asked, output: warned });
    expect(warned.lines).toContain(
      `warning: ${formerCacheDir} holds the key cache of a configuration made by an older velodata, whose files name keys: remove it (rm -r ${formerCacheDir}) once nginx runs this one`,
    );
  });

  it("warns when a folder on the way to the tree is closed to other users, as nginx's workers are", async () => {
    const folder = await tempDir();
    await chmod(folder, 0o755);
    const tree = join(folder, "out");
    expect((await runCli(["build", "--source", "fixtures", "--out", tree])).code).toBe(0);
    const asked = {
      tree,
      upstream: "http://127.0.0.1:8080",
      serverName: ["api.example.org"],
      cacheDir: join(await memoryDir(), "velodata"),
    };
    const quiet = memoryOutput();
    nginx({ ...asked, output: quiet });
    expect(quiet.lines.filter((line) => line.startsWith("warning"))).toEqual([]);
    // As a build under umask 077 by an older velodata left its store.
    const store = join(folder, ".out.velodata");
    await chmod(store, 0o700);
    const warned = memoryOutput();
    nginx({ ...asked, output: warned });
    expect(warned.lines).toContain(
      `warning: ${store} is mode 700: nginx's workers (another user, www-data) cannot read the tree's files through it, and would hand every request, public files too, to velodata serve (503 while it is down); chmod o+rx the folders of the tree and its store, o+r its files (a build under a narrow umask?)`,
    );
    await chmod(store, 0o755);
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
    // No limit per address is 0, not a negative number nor a word.
    for (const perAddress of ["-1", "many", "2.5"]) {
      const refused = await nginxWith("--max-concurrent-per-address", perAddress);
      expect([refused.code, refused.stderr], perAddress).toEqual([
        1,
        expect.stringContaining("must be a whole number, 0 or more, in digits"),
      ]);
    }
    const unlimited = await nginxWith("--max-concurrent-per-address", "0");
    expect(unlimited.code, unlimited.stderr).toBe(0);
    expect(unlimited.stdout).not.toContain("limit_conn");
    expect((await nginxWith()).stdout).toContain("\n    limit_conn velodata_addresses 32;\n");
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
    const host = await nginxWith("--server-name", "api.example.org;");
    expect(host.stderr).toContain('--server-name "api.example.org;" is not a host name');
    const alone = await nginxWith("--tls-certificate", "/etc/ssl/certs/x.pem");
    expect(alone.stderr).toContain("--tls-certificate and --tls-key go together");
    const absent = await nginxWith(
      ...["--tls-certificate", "/nonexistent/cert.pem", "--tls-key", "/nonexistent/key.pem"],
    );
    expect(absent.stderr).toContain("--tls-certificate /nonexistent/cert.pem: no such file");
    for (const result of [host, alone, absent]) expect(result.code).toBe(1);
    for (const result of [path, long, word, variable, host, alone, absent])
      expect(result.stderr).not.toContain("internal error");
  });

  it("expires dynamic answers at the tree's refresh period, the ttl its station_status feeds give", async () => {
    const every10 = join(await tempDir(), "out");
    const built = await runCli([
      "build",
      "--source",
      "fixtures",
      "--out",
      every10,
      "--refresh",
      "10",
    ]);
    expect(built.code, built.stderr).toBe(0);
    const upstream = ["--upstream", "http://127.0.0.1:8080"];
    const recorded = await runCli(["nginx", "--tree", every10, ...upstream]);
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(recorded.stdout).toContain("expires modified +10s;");
    expect(recorded.stdout).not.toContain("expires modified +60s;");
    // Given, --refresh wins; the fixture tree, built with the default period, keeps 60.
    const given = await runCli(["nginx", "--tree", every10, ...upstream, "--refresh", "30"]);
    expect(given.stdout).toContain("expires modified +30s;");
    const plain = await runCli(["nginx", "--tree", out, ...upstream]);
    expect(plain.stdout).toContain("expires modified +60s;");
  });

  it("writes HTTP/2 in the form of the nginx on PATH, or of --nginx-version, or the one every version takes", async () => {
    const dir = await tempDir();
    const [certificate, key] = [join(dir, "cert.pem"), join(dir, "key.pem")];
    await writeFile(certificate, "certificate");
    await writeFile(key, "key");
    const withTls = [
      ...["nginx", "--tree", out, "--upstream", "http://127.0.0.1:8080"],
      ...["--tls-certificate", certificate, "--tls-key", key],
    ];
    // A stand-in nginx, which says its version on stderr as nginx does.
    const bin = join(dir, "bin");
    await mkdir(bin);
    await writeFile(join(bin, "nginx"), "#!/bin/sh\necho 'nginx version: nginx/1.26.3' >&2\n", {
      mode: 0o755,
    });
    const found = await runCli(withTls, undefined, { PATH: `${bin}:/usr/bin:/bin` });
    expect(found.code, found.stderr).toBe(0);
    expect(found.stdout).toContain("\n    listen 443 ssl;\n    # nginx 1.26.3: ");
    expect(found.stdout).toContain("\n    http2 on;\n");
    const given = await runCli([...withTls, "--nginx-version", "1.22.1"], undefined, {
      PATH: `${bin}:/usr/bin:/bin`,
    });
    expect(given.stdout).toContain("\n    listen 443 ssl http2;\n    # nginx 1.22.1: ");
    const none = await runCli(withTls, undefined, { PATH: "/usr/bin:/bin" });
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toContain("\n    listen 443 ssl http2;\n    # nginx's version unknown: ");
    const wrong = await runCli([...withTls, "--nginx-version", "latest"]);
    expect([wrong.code, wrong.stderr]).toEqual([
      1,
      'velodata: --nginx-version "latest" is not a version\n  give what nginx -v says, e.g. 1.22.1\n',
    ]);
  });

  it("writes --output whole, readable by nginx, or not at all, leaving the file it replaces as it was", async () => {
    const dir = await tempDir();
    const file = join(dir, "velodata.conf");
    // A umask that would keep nginx's workers out of a file made plainly.
    const written = await runShell(
      `umask 077 && "${process.execPath}" "${BIN}" nginx --tree "${out}" --upstream http://127.0.0.1:8080 --output "${file}"`,
    );
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toBe("");
    const config = await readFile(file, "utf8");
    expect(config).toMatch(/^# velodata nginx /);
    expect(config).toContain(`root "${out}";`);
    expect((await stat(file)).mode & 0o777).toBe(0o644);
    // A failure (no tree there) leaves the previous configuration, and nothing beside it.
    const failed = await runCli([
      ...["nginx", "--tree", join(dir, "no-tree"), "--upstream", "http://127.0.0.1:8080"],
      ...["--output", file],
    ]);
    expect(failed.code).toBe(1);
    expect(await readFile(file, "utf8")).toBe(config);
    expect(await readdir(dir)).toEqual(["velodata.conf"]);
    const nowhere = await runCli([
      ...["nginx", "--tree", out, "--upstream", "http://127.0.0.1:8080"],
      ...["--output", join(dir, "missing", "velodata.conf")],
    ]);
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toContain(`--output ${join(dir, "missing", "velodata.conf")}: `);
    expect(nowhere.stderr).not.toContain("internal error");
  });

  it("heads the configuration with the whole command that made it, quoted to be pasted back", async () => {
    const dir = await tempDir();
    const tree = join(dir, "velo's tree");
    await symlink(out, tree);
    const [certificate, key] = [join(dir, "cert.pem"), join(dir, "key.pem")];
    await writeFile(certificate, "certificate");
    await writeFile(key, "key");
    const file = join(dir, "city_b.conf");
    const args = [
      ...["nginx", "--name", "city_b", "--tree", tree, "--upstream", "http://127.0.0.1:8080"],
      ...["--listen", "127.0.0.1:8443", "--server-name", "api.example.org", "*.velo.example.org"],
      ...["--tls-certificate", certificate, "--tls-key", key, "--nginx-version", "1.22.1"],
      ...["--cache-dir", join(dir, "keys"), "--key-cache", "3"],
      ...["--max-concurrent-per-address", "16", "--refresh", "30"],
      ...["--access-log", join(dir, "access.log"), "--no-brotli", "--output", file],
    ];
    const made = await runCli(args);
    expect(made.code, made.stderr).toBe(0);
    const config = await readFile(file, "utf8");
    const header = config.split("\n")[0] as string;
    expect(header).toBe(
      `# velodata nginx --name city_b --tree '${dir}/velo'\\''s tree' --upstream http://127.0.0.1:8080 --listen 127.0.0.1:8443 --server-name api.example.org '*.velo.example.org' --tls-certificate ${certificate} --tls-key ${key} --nginx-version 1.22.1 --cache-dir ${dir}/keys --key-cache 3 --max-concurrent-per-address 16 --refresh 30 --access-log ${dir}/access.log --no-brotli --output ${file}`,
    );
    // Pasted back into a shell (velodata being this build), it writes the same file.
    await writeFile(file, "");
    const again = await runShell(header.replace(/^# velodata /, `"${process.execPath}" "${BIN}" `));
    expect(again.code, again.stderr).toBe(0);
    expect(await readFile(file, "utf8")).toBe(config);
  });

  it("reads relative paths from the folder it runs in: the header's line and nginx's access log name them whole", async () => {
    const dir = await tempDir();
    await symlink(out, join(dir, "tree"));
    const args = ["nginx", "--tree", "tree", "--upstream", "http://127.0.0.1:8080"];
    const made = await runCli(
      [...args, "--access-log", "access.log", "--output", "site.conf"],
      dir,
    );
    expect(made.code, made.stderr).toBe(0);
    const config = await readFile(join(dir, "site.conf"), "utf8");
    expect(config.split("\n")[0]).toBe(
      `# velodata nginx --tree ${dir}/tree --upstream http://127.0.0.1:8080 --access-log ${dir}/access.log --output ${dir}/site.conf`,
    );
    // nginx would read a relative log's path from its own prefix.
    expect(config).toContain(`access_log "${dir}/access.log" velodata;`);
    // Run again from another folder, as an upgrade does: the same file.
    await writeFile(join(dir, "site.conf"), "");
    const header = config.split("\n")[0] as string;
    const again = await runShell(header.replace(/^# velodata /, `"${process.execPath}" "${BIN}" `));
    expect(again.code, again.stderr).toBe(0);
    expect(await readFile(join(dir, "site.conf"), "utf8")).toBe(config);
  });
});
