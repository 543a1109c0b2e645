// The two deployments the contract suite runs against: `velodata serve` alone, and a real nginx in
// front of the tree with `velodata serve --out` checking the keys (started on a free loopback port).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { createServer, connect as netConnect } from "node:net";
import { join } from "node:path";
import { connect as tlsConnect } from "node:tls";
import { nginxVersionOf } from "../../src/commands/nginx.js";
import type { ServeOptions } from "../../src/commands/serve.js";
import {
  CLIENT_TIMEOUT_SECONDS,
  CONCURRENT_PER_ADDRESS,
} from "../../src/host/nginx/client-limits.js";
import { type NginxOptions, nginxConfig } from "../../src/host/nginx/nginx-config.js";
import { ROUTE_LIST } from "../../src/routes/routes.js";
import { tempDir } from "../helpers.js";
import { checkAnswersOf } from "../serve/openapi-check.js";
import { startTestServer, type TestServer } from "../serve/serve-helpers.js";

export interface Deployment {
  /** Where clients go: velodata serve itself, or nginx. */
  base: string;
  server: TestServer;
  /** nginx's access log (nginx deployment only). */
  accessLog?: string;
  /** nginx's own error log, at `warn` (nginx deployment only). */
  errorLog?: string;
  /** The key cache's folder (nginx deployment only). */
  keyCache?: string;
  stop(): Promise<void>;
}

export const REFRESH_SECONDS = 3600;
/** In the tests nginx trusts a valid key for 1 s; production default 5 s, at most 10. */
export const KEY_CACHE_SECONDS = 1;

const BROTLI_MODULE = "/usr/lib/nginx/modules/ngx_http_brotli_static_module.so";

/** The nginx binary, or why these tests cannot run here. */
export function findNginx(): { path: string } | { missing: string } {
  for (const path of ["/usr/sbin/nginx", "/usr/local/sbin/nginx"])
    if (existsSync(path)) return { path };
  const which = spawnSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" });
  if (which.status === 0 && which.stdout.trim()) return { path: which.stdout.trim() };
  return {
    missing:
      "nginx is not installed (apt-get install -y nginx-light libnginx-mod-http-brotli-static)",
  };
}

export async function serveAlone(): Promise<Deployment> {
  const server = await startTestServer({ refresh: REFRESH_SECONDS });
  return { base: server.base, server, stop: () => server.handle.stop() };
}

/** What the nginx deployment is started with, beyond the contract suite's defaults. */
export interface NginxSetup {
  /** Certificate and key: nginx listens with TLS and HTTP/2 (clients must trust the certificate). */
  tls?: { certificate: string; key: string };
  /** The only server on its port (a dedicated nginx): no server_name, no default site beside it. */
  alone?: boolean;
  /** More options of the velodata serve behind it. */
  serve?: Partial<Omit<ServeOptions, "source" | "keys" | "output">>;
  /** What a client may hold, shorter or fewer than velodata nginx's defaults (their tests). */
  limits?: Partial<Pick<NginxOptions, "clientTimeoutSeconds" | "concurrentPerAddress">>;
}

export async function nginxInFront(nginx: string, setup: NginxSetup = {}): Promise<Deployment> {
  // A space in every path: the configuration must quote them (an operator's folders may have one).
  const dir = await tempDir("velodata nginx-");
  const out = join(dir, "out");
  const server = await startTestServer({ refresh: REFRESH_SECONDS, out, ...setup.serve });
  const prefix = join(dir, "nginx");
  await mkdir(join(prefix, "logs"), { recursive: true });
  const port = await freePort();
  const keyCache = join(prefix, "key-cache");
  const brotli = existsSync(BROTLI_MODULE);
  const nginxVersion = nginxVersionOf(nginx);
  const config = nginxConfig(ROUTE_LIST, {
    name: "velodata",
    tree: out,
    upstream: new URL(server.base),
    listen: `127.0.0.1:${port}`,
    // The name clients reach it by: Debian's default site below answers every other.
    ...(setup.alone ? {} : { serverNames: ["127.0.0.1"] }),
    ...(setup.tls ? { tls: setup.tls } : {}),
    // HTTP/2 as this nginx takes it (the TLS tests prove the form it is given).
    ...(nginxVersion ? { nginxVersion } : {}),
    cacheDir: keyCache,
    keyCacheSeconds: KEY_CACHE_SECONDS,
    clientTimeoutSeconds: CLIENT_TIMEOUT_SECONDS,
    concurrentPerAddress: CONCURRENT_PER_ADDRESS,
    ...setup.limits,
    refreshSeconds: REFRESH_SECONDS,
    accessLog: join(prefix, "access.log"),
    brotli: brotli ? "on" : "not-enabled",
    generatedBy: "contract suite",
  });
  await writeFile(join(prefix, "velodata.conf"), config);
  // As Debian's nginx.conf: modules, events, the generated file and the stock default site
  // (`listen 80 default_server`, here on the same port) included in `http`.
  const ssl = setup.tls
    ? ` ssl; ssl_certificate "${setup.tls.certificate}"; ssl_certificate_key "${setup.tls.key}"`
    : "";
  await writeFile(
    join(prefix, "nginx.conf"),
    [
      brotli ? `load_module ${BROTLI_MODULE};` : "",
      // Workers of a root master run as nobody, who cannot read a private temporary folder.
      process.getuid?.() === 0 ? "user root;" : "",
      `error_log "${join(prefix, "error.log")}" warn;`,
      "events {}",
      "http {",
      `  include "${join(prefix, "velodata.conf")}";`,
      setup.alone
        ? ""
        : `  server { listen 127.0.0.1:${port} default_server${ssl}; server_name _; return 200 "${DEFAULT_SITE}"; }`,
      "}",
    ].join("\n"),
  );
  const child = spawn(
    nginx,
    [
      "-p",
      prefix,
      "-c",
      join(prefix, "nginx.conf"),
      "-g",
      `daemon off; pid "${prefix}/nginx.pid";`,
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk) => (stderr += chunk));
  const base = `${setup.tls ? "https" : "http"}://127.0.0.1:${port}`;
  await untilListening(child, port, () => stderr, Boolean(setup.tls));
  if (!setup.tls) checkAnswersOf(base);
  return {
    base,
    server,
    accessLog: join(prefix, "access.log"),
    errorLog: join(prefix, "error.log"),
    keyCache,
    async stop() {
      await stopChild(child);
      await server.handle.stop();
    },
  };
}

/** What the stand-in for Debian's default site answers. */
export const DEFAULT_SITE = "Welcome to nginx!";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** Connects until nginx accepts, or fails with what nginx said if it exits first. */
export async function untilListening(
  child: ChildProcess,
  port: number,
  said: () => string,
  tls: boolean,
) {
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`nginx exited (${code}): ${said()}`))),
  );
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const connected = await Promise.race([
      connects(port, tls).then(
        () => true,
        () => false,
      ),
      exited,
    ]);
    if (connected) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nginx did not listen on ${port} within 10 s: ${said()}`);
}

/** Whether a connection to the port opens (with TLS: a handshake, the certificate not checked). */
function connects(port: number, tls: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = tls
      ? tlsConnect({ host: "127.0.0.1", port, rejectUnauthorized: false }, () => {
          socket.destroy();
          resolve();
        })
      : netConnect(port, "127.0.0.1", () => {
          socket.destroy();
          resolve();
        });
    socket.once("error", reject);
  });
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGQUIT");
  });
}
