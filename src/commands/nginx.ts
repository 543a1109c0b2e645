// `velodata nginx`: prints the nginx configuration that serves a tree, with velodata serve checking the keys.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, renameSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { refusedWrite, UserError } from "../errors.js";
import { CLIENT_TIMEOUT_SECONDS, CONCURRENT_PER_ADDRESS } from "../host/nginx/client-limits.js";
import { keyFileSeconds } from "../host/nginx/key-cache-files.js";
import { nginxConfig } from "../host/nginx/nginx-config.js";
import { DEFAULT_REFRESH_SECONDS } from "../routes/max-age.js";
import { ROUTE_LIST } from "../routes/routes.js";
import { readTree } from "../tree/read-tree.js";
import { closedToOthers } from "./closed-to-others.js";
import { absoluteLog, commandLineOf } from "./nginx-command-line.js";
import { type Output, terminalOutput } from "./output.js";

export interface NginxCommandOptions {
  /** The instance's name, the prefix of nginx's http-level names (default: velodata). */
  name?: string;
  tree: string;
  upstream: string;
  /** Default: 80, or 443 with TLS. */
  listen?: string;
  serverName?: string[];
  tlsCertificate?: string;
  tlsKey?: string;
  cacheDir?: string;
  /** Seconds nginx trusts a valid key before asking again (default 5; at most 10). */
  keyCache?: number;
  /** Requests one client address may have in progress at once (default 32; 0: no limit). */
  maxConcurrentPerAddress?: number;
  /** As given to `serve --refresh` (default: the tree's, as serve or build recorded it; else 60). */
  refresh?: number;
  accessLog?: string;
  /** As `nginx -v` says it (default: the nginx on PATH's; none: the form every version takes). */
  nginxVersion?: string;
  /** Default: whether Debian's brotli_static module is enabled on this machine. */
  brotli?: boolean;
  /** The file to write, whole or not at all (default: stdout). */
  outputFile?: string;
  /** The distribution's default site, warned of when it would answer instead (tests). */
  defaultSite?: string;
  /** Where an older velodata kept the key cache, on a disk (tests; default /var/lib/nginx/NAME). */
  formerCacheDir?: string;
  output?: Output;
}

/** Where Debian's libnginx-mod-http-brotli-static enables its module. */
export const BROTLI_ENABLED = "/etc/nginx/modules-enabled/50-mod-http-brotli-static.conf";

/** Debian's stock site, the default server for port 80 (`listen 80 default_server`). */
export const DEBIAN_DEFAULT_SITE = "/etc/nginx/sites-enabled/default";

// What nginx takes as a variable's name, which the instance's name begins.
const NGINX_IDENTIFIER = /^[a-z_][a-z0-9_]*$/i;

// What nginx's server_name takes here: a host name, with a leading or trailing wildcard part.
const SERVER_NAME =
  /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(\.\*)?$/i;

/** The certificate and key, both or neither, each a file that is there. */
function tlsOf(options: NginxCommandOptions): { certificate: string; key: string } | undefined {
  const { tlsCertificate, tlsKey } = options;
  if (tlsCertificate === undefined && tlsKey === undefined) return undefined;
  if (tlsCertificate === undefined || tlsKey === undefined)
    throw new UserError("--tls-certificate and --tls-key go together", [
      "give both files, e.g. Let's Encrypt's fullchain.pem and privkey.pem",
    ]);
  const files = { certificate: resolve(tlsCertificate), key: resolve(tlsKey) };
  for (const [option, path] of [
    ["--tls-certificate", files.certificate],
    ["--tls-key", files.key],
  ] as const)
    if (!existsSync(path)) throw new UserError(`${option} ${path}: no such file`);
  return files;
}

const VERSION = /^\d+\.\d+\.\d+$/;

/** The version of the nginx `command` runs (`nginx -v` says it on stderr), if there is one. */
export function nginxVersionOf(command = "nginx"): string | undefined {
  const said = spawnSync(command, ["-v"], { encoding: "utf8" });
  return /nginx\/(\d+\.\d+\.\d+)/.exec(`${said.stderr ?? ""}${said.stdout ?? ""}`)?.[1];
}

export function nginx(options: NginxCommandOptions): string {
  const output = options.output ?? terminalOutput();
  const published = readTree(options.tree); // says plainly when there is no tree there
  let upstream: URL;
  try {
    upstream = new URL(options.upstream);
  } catch {
    throw new UserError(`--upstream ${options.upstream} is not a URL`, [
      "give the address velodata serve listens on, e.g. http://127.0.0.1:8080",
    ]);
  }
  // Said without the value: it would show the password.
  if (upstream.username || upstream.password)
    throw new UserError("--upstream must not hold credentials (user:password@)", [
      "velodata serve is reached without them: give http://HOST:PORT",
    ]);
  if (upstream.protocol !== "http:" || (upstream.pathname !== "/" && upstream.pathname !== ""))
    throw new UserError(`--upstream ${options.upstream} must be http://HOST:PORT, with no path`);
  const name = options.name ?? "velodata";
  if (!NGINX_IDENTIFIER.test(name))
    throw new UserError(`--name ${JSON.stringify(name)} is not an nginx identifier`, [
      "give letters, digits and _, not starting with a digit, e.g. velodata_staging",
    ]);
  const tree = resolve(options.tree);
  // In /run, a memory file system on most systems: the cache's files name the keys.
  const cacheDir = resolve(options.cacheDir ?? `/run/nginx-${name}`);
  const accessLog = absoluteLog(options.accessLog ?? `/var/log/nginx/${name}-access.log`);
  for (const [option, path] of [
    ["--tree", tree],
    ["--cache-dir", cacheDir],
    ["--access-log", accessLog],
    ["--tls-certificate", options.tlsCertificate ?? ""],
    ["--tls-key", options.tlsKey ?? ""],
  ] as const)
    if (/[$\p{Cc}]/u.test(path))
      throw new UserError(
        `${option} ${JSON.stringify(path)}: nginx reads "$" in a path as a variable, and a control character ends the line`,
        ["choose a path without them"],
      );
  const keyCacheSeconds = options.keyCache ?? 5;
  if (keyCacheSeconds > 10)
    throw new UserError(
      "--key-cache must be at most 10 seconds: a revoked key must stop within 10",
    );
  const concurrentPerAddress = options.maxConcurrentPerAddress ?? CONCURRENT_PER_ADDRESS;
  if (!Number.isInteger(concurrentPerAddress) || concurrentPerAddress < 0)
    throw new UserError(
      `--max-concurrent-per-address ${concurrentPerAddress} is not a whole number of requests`,
      ["give 32, say, or 0 for no limit (behind a CDN, a load balancer or a TLS terminator)"],
    );
  const tls = tlsOf(options);
  if (options.nginxVersion !== undefined && !VERSION.test(options.nginxVersion))
    throw new UserError(
      `--nginx-version ${JSON.stringify(options.nginxVersion)} is not a version`,
      ["give what nginx -v says, e.g. 1.22.1"],
    );
  // Only TLS has a form that depends on it.
  const nginxVersion = tls ? (options.nginxVersion ?? nginxVersionOf()) : undefined;
  const serverNames = options.serverName ?? [];
  for (const name of serverNames)
    if (!SERVER_NAME.test(name))
      throw new UserError(`--server-name ${JSON.stringify(name)} is not a host name`, [
        "give the host names of --base-url, e.g. api.example.org (*.example.org for all of a domain)",
      ]);
  const listen = options.listen ?? (tls ? "443" : "80");
  const defaultSite = options.defaultSite ?? DEBIAN_DEFAULT_SITE;
  // Debian's default site listens on port 80.
  if (serverNames.length === 0 && /(^|:)80$/.test(listen) && existsSync(defaultSite))
    output.warn(
      `warning: ${defaultSite} is enabled: without --server-name, that site answers every request (nginx's welcome page); give --server-name HOST, or remove it`,
    );
  // The cache folder itself where it exists (a mount of its own), else where nginx will make it.
  const cacheHome = existsSync(cacheDir) ? cacheDir : dirname(cacheDir);
  // nginx makes the cache's folder, not its parent.
  if (!existsSync(dirname(cacheDir)))
    output.warn(
      `warning: ${dirname(cacheDir)} does not exist: nginx will not start ("mkdir() … failed"); create it (mkdir -p ${dirname(cacheDir)}) or give --cache-dir in a folder that exists`,
    );
  else if (!inMemory(cacheHome))
    output.warn(
      `warning: ${cacheHome} is not on a memory file system (tmpfs): the key cache's files name the keys nginx checked in the last ${keyFileSeconds(keyCacheSeconds)} s, which would reach the disk, its backups and images; give --cache-dir in one (/run on most systems, /dev/shm)`,
    );
  // A tree written under a narrow umask by an older velodata (or by hand): nginx cannot open its
  // files, and hands every request to serve, answering 503 for them all while serve is down.
  const closed = closedToOthers(published.release.tree);
  if (closed)
    output.warn(
      `warning: ${closed.path} is mode ${closed.mode}: nginx's workers (another user, www-data) cannot read the tree's files through it, and would hand every request, public files too, to velodata serve (503 while it is down); chmod o+rx the folders of the tree and its store, o+r its files (a build under a narrow umask?)`,
    );
  // An older velodata's default, on the disk: its files name the keys last checked there.
  const formerCache = options.formerCacheDir ?? `/var/lib/nginx/${name}`;
  if (formerCache !== cacheDir && existsSync(formerCache))
    output.warn(
      `warning: ${formerCache} holds the key cache of a configuration made by an older velodata, whose files name keys: remove it (rm -r ${formerCache}) once nginx runs this one`,
    );
  const config = nginxConfig(ROUTE_LIST, {
    name,
    // The published path itself (the symlink), not where it leads now: rebuilds switch it.
    tree,
    upstream,
    listen,
    serverNames,
    ...(tls ? { tls } : {}),
    ...(nginxVersion ? { nginxVersion } : {}),
    cacheDir,
    keyCacheSeconds,
    clientTimeoutSeconds: CLIENT_TIMEOUT_SECONDS,
    concurrentPerAddress,
    // The period the tree's station_status feeds give as their ttl: an answer kept longer by a
    // cache would outlive what its own feed says.
    refreshSeconds:
      options.refresh ?? published.manifest?.refreshSeconds ?? DEFAULT_REFRESH_SECONDS,
    accessLog,
    brotli:
      options.brotli === false
        ? "left-out"
        : options.brotli || existsSync(BROTLI_ENABLED)
          ? "on"
          : "not-enabled",
    generatedBy: commandLineOf(options, upstream),
  });
  if (options.outputFile === undefined) output.info(config.trimEnd());
  else writeWhole(options.outputFile, config);
  return config;
}

/**
 * Written beside and renamed over: a failure leaves the configuration it replaces, never an empty
 * file that nginx -t would take (and a reload would serve no site). The temporary file is a dotfile,
 * which nginx's `include …/*` leaves out; nginx's workers read it (0644, whatever the umask).
 */
function writeWhole(file: string, config: string): void {
  const temporary = join(dirname(file), `.${basename(file)}.tmp-${process.pid}`);
  try {
    writeFileSync(temporary, config, { mode: 0o644 });
    chmodSync(temporary, 0o644);
    renameSync(temporary, file);
  } catch (cause) {
    rmSync(temporary, { force: true });
    const code = (cause as { code?: string }).code;
    if (code === "ENOENT" || code === "ENOTDIR")
      throw new UserError(`--output ${file}: its folder ${dirname(file)} does not exist`, [], {
        cause,
      });
    if (code === "EISDIR")
      throw new UserError(`--output ${file} is a folder: give the path of a file`, [], { cause });
    throw refusedWrite(cause, `--output ${file}`);
  }
}

// statfs's f_type of the file systems that keep their files in memory only.
const MEMORY_FILE_SYSTEMS = new Set([0x01021994 /* tmpfs */, 0x858458f6 /* ramfs */]);

/** Whether `folder` is on a memory file system (unknown, as on a system without statfs: yes). */
function inMemory(folder: string): boolean {
  try {
    return MEMORY_FILE_SYSTEMS.has(statfsSync(folder).type);
  } catch {
    return true;
  }
}
