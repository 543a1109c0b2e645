#!/usr/bin/env node
// `npm run bench`: one table for issue 9. A seeded synthetic network (velodata synth), then build,
// cron refresh and server refresh (wall time by step, peak RSS, ratios), then serving on loopback:
// velodata serve beside the Node ceiling, sirv and nginx over the same tree, interleaved rounds.
// Usage: npm run bench [-- --stations N | --million] [--seconds 3] [--rounds 3] [--no-serving]
//        [--before path/to/old/bin/velodata.js]   (adds an older velodata as one more peer)
//        [--only serving]   (no build/refresh measures: one `velodata build` makes the tree, or
//                            with --dir D holding D/source and D/out from an earlier run, none;
//                            a given --dir is kept)
// At its start and end it says how fast the machine itself is then (scripts/bench/sitting.js): the
// same code measures up to twice as slow on some sittings of the same VM.
// velodata serve runs with --refresh 3600: no refresh falls inside the rounds (the production
// minute refresh would land in one round of 3 s out of 20 and weigh on its p99, not its median).
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { cpus, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildHeapFlags, buildHeapOf, sourceBytesOf } from "../dist/commands/build-heap.js";
import { YOUNG_GENERATION_MB } from "../dist/commands/command-thread.js";
import { memoryOutput } from "../dist/commands/output.js";
import { synth } from "../dist/commands/synth.js";
import { CLIENT_TIMEOUT_SECONDS } from "../dist/host/nginx/client-limits.js";
import { nginxConfig } from "../dist/host/nginx/nginx-config.js";
import { ROUTE_LIST } from "../dist/routes/routes.js";
import { SERVING_THREAD_FLAGS } from "../dist/serve/heap-tuning.js";
import { addKey } from "../dist/serve/keys/key-file.js";
import { layoutOf } from "../dist/tree/layout.js";
import { median } from "./bench/median.js";

const ROOT = resolve(import.meta.dirname, "..");
const BIN = join(ROOT, "bin/velodata.js");
const { values } = parseArgs({
  options: {
    stations: { type: "string", default: "100000" },
    million: { type: "boolean", default: false },
    contracts: { type: "string" },
    changed: { type: "string", default: "0.1" },
    seconds: { type: "string", default: "3" },
    rounds: { type: "string", default: "3" },
    "no-serving": { type: "boolean", default: false },
    only: { type: "string" },
    before: { type: "string" },
    dir: { type: "string" },
  },
});
const stations = values.million ? 1_000_000 : Number(values.stations);
// tmpfs gives each small file a whole 4 KB page: a million stations' tree (2 files per station, and
// a second release beside it while a build replaces it) needs ~20 GB of RAM there, beside the
// build's own ~7 GB. Below this much RAM the million's tree goes on disk.
const MILLION_ON_TMPFS = 40 * 2 ** 30;
const onTmpfs = existsSync("/dev/shm") && !(values.million && totalmem() < MILLION_ON_TMPFS);
// One folder per run unless given: other benchmarks may run on the same machine.
const dir = resolve(
  values.dir ?? join(onTmpfs ? "/dev/shm" : ROOT, `velodata-bench-${process.pid}`),
);
const source = join(dir, "source");
const out = join(dir, "out");
const roundSeconds = Number(values.seconds);
// Each peer's unmeasured load on an answer before its rounds.
const WARM_UP_SECONDS = 1;
// Successive minutes the cron refresh is measured on (the first right after a build): its median.
const CRON_MINUTES = 3;
const rounds = Number(values.rounds);
const servingOnly = values.only === "serving";
if (values.only !== undefined && !servingOnly) throw new Error("--only takes: serving");
// An earlier run's network and tree, reused as they are (serving only).
const reuse = servingOnly && existsSync(source) && existsSync(out);
const keepDir = values.dir !== undefined;

const fmt = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "–");
/**
 * A ratio to three significant digits, cut towards the target's wrong side: one where more is
 * better (requests/s, a build over a refresh) rounded down, one where less is (p99, CPU per
 * request, the cost of ten times the network) rounded up, so that no target is met by rounding.
 */
const ratio = (n, better) => {
  if (!Number.isFinite(n) || n <= 0) return "–";
  const digits = Math.max(0, 2 - Math.floor(Math.log10(n)));
  const scale = 10 ** digits;
  const cut = better === "more" ? Math.floor(n * scale) : Math.ceil(n * scale);
  return (cut / scale).toFixed(digits);
};
const table = (header, rows) => {
  const lines = [header, header.map(() => "---"), ...rows];
  return lines.map((cells) => `| ${cells.join(" | ")} |`).join("\n");
};

/** Runs a command to its end; wall seconds and peak RSS (MB) from GNU time when present. */
function timed(command, args) {
  const time = existsSync("/usr/bin/time");
  const started = performance.now();
  const run = time
    ? spawnSync("/usr/bin/time", ["-f", "__rss %M", command, ...args], { encoding: "utf8" })
    : spawnSync(command, args, { encoding: "utf8" });
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`${command} ${args.join(" ")} failed:\n${run.stderr}`);
  const rss = /__rss (\d+)/.exec(run.stderr ?? "");
  return { seconds, rssMB: rss ? Number(rss[1]) / 1024 : Number.NaN, stdout: run.stdout };
}

const STEP_NAMES = ["read", "render", "compress", "write"];

/** The steps `velodata build --timings` or `velodata refresh --timings` says, by name (seconds). */
function stepsOf(stdout) {
  const said =
    /^took [\d.]+ s: read \+ validate ([\d.]+) s, render ([\d.]+) s, compress ([\d.]+) s, write ([\d.]+) s$/m.exec(
      stdout,
    );
  if (!said) throw new Error(`velodata said no timings:\n${stdout}`);
  return Object.fromEntries(STEP_NAMES.map((name, at) => [name, Number(said[at + 1])]));
}

/** A tree's published link and its store beside it (releases, lock), as if never built. */
async function removeBuilt(tree) {
  const layout = layoutOf(tree);
  await rm(layout.published, { force: true });
  await rm(layout.store, { recursive: true, force: true });
}

function phase(mode, from = source, to = out, extra = [], nodeFlags = []) {
  const script = join(ROOT, "scripts/bench/phases.js");
  const run = timed(process.execPath, [...nodeFlags, script, mode, from, to, ...extra]);
  return JSON.parse(run.stdout.trim().split("\n").pop());
}

// `velodata build` and `velodata serve` run in a thread whose young generation is three 64 MB parts,
// two of them semi-spaces (src/commands/command-thread.ts): the build by steps and the server
// refresh, each in a process's main thread, are given the same.
const THREAD_YOUNG = [`--max-semi-space-size=${YOUNG_GENERATION_MB / 3}`];

// ... and a build's thread the heap `velodata build` sizes for its source (src/commands/build-heap.ts).
const buildThread = (from) => [
  ...THREAD_YOUNG,
  ...buildHeapFlags(buildHeapOf(sourceBytesOf(from))),
];

// A million stations fill ~3.5 GB of heap, near Node's 4 GB default limit, where V8 collects to
// save memory at every turn: \`velodata serve\` says so at start and names this option.
const SERVER_HEAP = values.million ? ["--max-old-space-size=12288"] : [];

// ---- the network
console.log(`velodata bench: ${reuse ? "the network" : `${stations} stations`} under ${dir}`);
if (values.million && values.dir === undefined && !onTmpfs)
  console.log(
    `(on disk: a million stations' tree needs ~20 GB of tmpfs, and this machine has ${fmt(totalmem() / 2 ** 30)} GB of RAM)`,
  );
console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model}, ${fmt(totalmem() / 2 ** 30)} GB RAM, Node ${process.version}`,
);
await mkdir(dir, { recursive: true });
console.log(`this sitting, at the start: ${sitting()}`);
if (!reuse) {
  await rm(dir, { recursive: true, force: true });
  await synth({
    stations,
    contracts: values.contracts ? Number(values.contracts) : undefined,
    changed: Number(values.changed),
    // States for the cron and server refreshes' successive minutes, the last one reported now:
    // the refreshes that follow publish a live feed's states, not a stalled one's.
    minutes: CRON_MINUTES,
    start: new Date(Date.now() - CRON_MINUTES * 60_000),
    out: source,
    output: memoryOutput(),
  });
}
if (servingOnly && !reuse)
  timed(process.execPath, [BIN, "build", "--source", source, "--out", out]);
if (!servingOnly) await measureBuildAndRefresh();

// ---- build and refresh
async function measureBuildAndRefresh() {
  const build = phase("build", source, out, [], buildThread(source)); // also leaves the tree that the cron refresh and the servers use
  if (values.million) await tenthSideBySide(build);
  // The full build the cron refresh is compared with starts from an empty folder: replacing a
  // tree, it leaves a process of its own removing the one it replaced (until the fifty-fourth
  // session it waited for that, 2.2-6 s of its write from run to run at 100,000 stations), which
  // would run beside the cron minutes measured next.
  await removeBuilt(out);
  const wholeBuild = timed(process.execPath, [
    BIN,
    "build",
    "--source",
    source,
    "--out",
    out,
    "--timings",
  ]);
  // Minute after minute on the tree just built, each its own process, as cron runs them.
  const cronRuns = [];
  for (let minute = 1; minute <= CRON_MINUTES; minute++)
    cronRuns.push(
      timed(process.execPath, [
        BIN,
        "refresh",
        "--source",
        source,
        "--state",
        join(source, `states-${minute}.json`),
        "--out",
        out,
        "--timings",
      ]),
    );
  // Its steps are the minute's own account (`--timings`): parts of its wall time since the
  // process started, each the median over the minutes.
  const cronSteps = cronRuns.map((run) => stepsOf(run.stdout));
  const cron = {
    seconds: median(cronRuns.map((run) => run.seconds)),
    rssMB: Math.max(...cronRuns.map((run) => run.rssMB)),
    each: cronRuns.map((run) => fmt(run.seconds, 2)).join(", "),
    steps: Object.fromEntries(
      STEP_NAMES.map((name) => [name, median(cronSteps.map((steps) => steps[name]))]),
    ),
  };
  // Back to minute 0 for the servers (the server refresh phase needs no tree).
  if (!values["no-serving"])
    timed(process.execPath, [BIN, "build", "--source", source, "--out", out]);
  const server = phase(
    "server-refresh",
    source,
    out,
    [String(CRON_MINUTES)],
    // As `velodata serve`'s thread (src/serve/heap-tuning.ts).
    [...SERVER_HEAP, ...THREAD_YOUNG, ...SERVING_THREAD_FLAGS],
  );
  const split = (steps) => STEP_NAMES.map((name) => fmt(steps?.[name], 2));
  console.log(
    `\n### Build and refresh, ${stations} stations, ${Number(values.changed) * 100}% changed\n`,
  );
  console.log(
    table(
      [
        "run",
        "wall s",
        "read+validate",
        "render",
        "compress",
        "write",
        "peak RSS MB",
        "full build / this",
      ],
      [
        [
          "build (steps, in one process)",
          fmt(build.total, 2),
          ...split(build.steps),
          fmt(build.maxRssMB, 0),
          "–",
        ],
        [
          "`velodata build` (whole process, into an empty folder)",
          fmt(wholeBuild.seconds, 2),
          ...split(stepsOf(wholeBuild.stdout)),
          fmt(wholeBuild.rssMB, 0),
          "1.0×",
        ],
        [
          `\`velodata refresh\` (cron, whole process; median of ${CRON_MINUTES} successive minutes: ${cron.each})`,
          fmt(cron.seconds, 2),
          ...split(cron.steps),
          fmt(cron.rssMB, 0),
          `${ratio(wholeBuild.seconds / cron.seconds, "more")}×`,
        ],
        [
          `server refresh (states read → swap, compress after it; median of ${CRON_MINUTES} successive minutes: ${server.each.map((seconds) => fmt(seconds, 2)).join(", ")}${SERVER_HEAP.length ? `; ${SERVER_HEAP.join(" ")}` : ""})`,
          fmt(server.total, 2),
          ...split(server.steps),
          fmt(server.maxRssMB, 0),
          `${ratio(wholeBuild.seconds / server.total, "more")}×`,
        ],
      ],
    ),
  );
}

if (values["no-serving"]) {
  await finish();
  process.exit(0);
}

// ---- serving
const freePort = () =>
  new Promise((resolvePort) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolvePort(port));
    });
  });

/** Starts a server process and resolves once it printed `ready` (or the given text). */
function startProcess(command, args, ready = "ready") {
  return new Promise((resolveStart, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let seen = "";
    const onData = (chunk) => {
      seen += chunk;
      if (!seen.includes(ready)) return;
      child.stdout.off("data", onData);
      child.stdout.resume(); // keep draining its log: a full pipe would stall the server
      resolveStart(child);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (chunk) => (seen += chunk));
    child.on("exit", (code) => reject(new Error(`${command} exited (${code}): ${seen}`)));
  });
}
const stopProcess = (child) =>
  new Promise((done) => {
    child.removeAllListeners("exit");
    child.once("exit", done);
    child.kill("SIGTERM");
  });

// A name of its own: `--dir` may name a folder that holds a deployment's keys.json.
const keysFile = join(dir, "bench-keys.json");
await rm(keysFile, { force: true });
const { key } = await addKey(keysFile, "bench", new Date());
const contract = "lyon";
const number = 42;
const answers = [
  {
    name: "one station",
    path: `/vls/v3/stations/${contract}/${number}`,
    query: `/vls/v3/stations/${number}?contract=${contract}`,
    connections: 64,
  },
  {
    name: "a contract's list",
    path: `/vls/v3/stations/${contract}`,
    query: `/vls/v3/stations?contract=${contract}`,
    connections: 64,
  },
  { name: "all stations", path: "/vls/v3/stations", query: "/vls/v3/stations?", connections: 8 },
];
for (const answer of answers) answer.bytes = (await stat(join(out, `${answer.path}.json`))).size;

/**
 * The peers. Each starts on a free port and says how it spells a URL: { name, gzip, start(port) }.
 */
const velodataPeer = (name, bin) => ({
  name,
  gzip: true,
  start: (port) =>
    startProcess(
      process.execPath,
      [
        bin,
        "serve",
        "--source",
        source,
        "--keys",
        keysFile,
        "--port",
        String(port),
        "--refresh",
        "3600",
      ],
      "serving",
    ),
  url: (port, answer) =>
    `http://127.0.0.1:${port}${answer.query}${answer.query.endsWith("?") ? "" : "&"}apiKey=${key}`,
});
const staticUrl = (port, answer) => `http://127.0.0.1:${port}${answer.path}`;
const peers = [
  velodataPeer("velodata", BIN),
  ...(values.before ? [velodataPeer("velodata (before)", resolve(values.before))] : []),
  {
    name: "node:http Map (ceiling)",
    gzip: false,
    start: (port) =>
      startProcess(process.execPath, [
        join(ROOT, "scripts/bench/ceiling-server.js"),
        out,
        String(port),
      ]),
    url: staticUrl,
  },
  {
    name: "sirv",
    gzip: false,
    start: (port) =>
      startProcess(process.execPath, [
        join(ROOT, "scripts/bench/sirv-server.js"),
        out,
        String(port),
      ]),
    url: staticUrl,
  },
];
const nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].find(existsSync);
if (nginx)
  peers.push({
    name: "nginx (1 worker)",
    gzip: true,
    start: (port) => startNginx(port),
    url: staticUrl,
  });
else console.log("nginx not found: install Debian's nginx-light to compare with it");
if (nginx)
  peers.push({
    name: "nginx with velodata key checks (1 worker)",
    gzip: true,
    start: (port) => startKeyedNginx(port),
    companion: () => companions,
    url: (port, answer) => velodataPeer("", BIN).url(port, answer),
  });

/** Processes a peer needs beside its own (the key checker), stopped with the peers. */
const companions = [];

/** The production deployment: `velodata nginx`'s configuration in front of `velodata serve --out`. */
async function startKeyedNginx(port) {
  const keyed = join(dir, "out-keyed");
  const upstream = await freePort();
  const serveProcess = await startProcess(
    process.execPath,
    [
      BIN,
      "serve",
      "--source",
      source,
      "--keys",
      keysFile,
      "--port",
      String(upstream),
      "--refresh",
      "3600",
      "--out",
      keyed,
    ],
    "serving",
  );
  const prefix = join(dir, "nginx-keyed");
  await mkdir(join(prefix, "logs"), { recursive: true });
  const brotli = "/usr/lib/nginx/modules/ngx_http_brotli_static_module.so";
  const generated = nginxConfig(ROUTE_LIST, {
    tree: keyed,
    upstream: new URL(`http://127.0.0.1:${upstream}`),
    listen: `127.0.0.1:${port}`,
    cacheDir: join(prefix, "key-cache"),
    keyCacheSeconds: 5,
    clientTimeoutSeconds: CLIENT_TIMEOUT_SECONDS,
    // wrk's 64 connections all come from one address: the limit per address would refuse half.
    concurrentPerAddress: 0,
    refreshSeconds: 3600,
    accessLog: "off", // as the plain nginx peer
    brotli: existsSync(brotli) ? "on" : "not-enabled",
    name: "velodata",
    generatedBy: "bench",
  });
  await writeFile(join(prefix, "velodata.conf"), generated);
  await writeFile(
    join(prefix, "nginx.conf"),
    `${existsSync(brotli) ? `load_module ${brotli};` : ""}
${process.getuid?.() === 0 ? "user root;" : ""}
worker_processes 1; daemon off; pid ${prefix}/nginx.pid; error_log ${prefix}/logs/error.log warn;
events { worker_connections 4096; }
http {
  sendfile on; tcp_nopush on; keepalive_requests 1000000;
  client_body_temp_path ${prefix}/tmp-body; proxy_temp_path ${prefix}/tmp-proxy; fastcgi_temp_path ${prefix}/tmp-fcgi;
  uwsgi_temp_path ${prefix}/tmp-uwsgi; scgi_temp_path ${prefix}/tmp-scgi;
  include ${prefix}/velodata.conf;
}\n`,
  );
  const child = spawn(
    nginx,
    ["-p", prefix, "-e", join(prefix, "logs/error.log"), "-c", join(prefix, "nginx.conf")],
    { stdio: "ignore" },
  );
  companions.push(serveProcess);
  for (let attempt = 0; attempt < 100; attempt++) {
    const ok = await fetch(`http://127.0.0.1:${port}/vls/v3/contracts?apiKey=${key}`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nginx with key checks did not start: see ${prefix}/logs/error.log`);
}

async function startNginx(port) {
  const prefix = join(dir, "nginx");
  await mkdir(join(prefix, "logs"), { recursive: true });
  const config = `worker_processes 1; daemon off; pid ${prefix}/nginx.pid; error_log ${prefix}/logs/error.log warn;
events { worker_connections 4096; }
http {
  access_log off; default_type application/json; sendfile on; tcp_nopush on; keepalive_requests 1000000;
  client_body_temp_path ${prefix}/tmp-body; proxy_temp_path ${prefix}/tmp-proxy; fastcgi_temp_path ${prefix}/tmp-fcgi;
  uwsgi_temp_path ${prefix}/tmp-uwsgi; scgi_temp_path ${prefix}/tmp-scgi;
  gzip on; gzip_types application/json; gzip_min_length 1024;
  server { listen 127.0.0.1:${port}; root ${out}; location / { try_files $uri $uri.json =404; } }
}\n`;
  await writeFile(join(prefix, "nginx.conf"), config);
  const child = spawn(
    nginx,
    ["-p", prefix, "-e", join(prefix, "logs/error.log"), "-c", join(prefix, "nginx.conf")],
    { stdio: "ignore" },
  );
  for (let attempt = 0; attempt < 100; attempt++) {
    if (
      await fetch(`http://127.0.0.1:${port}/vls/v3/contracts`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nginx did not start: see ${prefix}/logs/error.log`);
}

const wrk = ["/usr/bin/wrk", "/usr/local/bin/wrk"].find(existsSync);
const autocannon = join(ROOT, "node_modules/.bin/autocannon");
if (!wrk && !existsSync(autocannon)) {
  console.log(
    "\nno load generator: install wrk (Debian: apt-get install wrk) or `npm i -D autocannon`",
  );
  await finish();
  process.exit(0);
}

/**
 * A load generator's output, run without blocking this process: the servers' logs are pipes this
 * process drains, and a round spent in spawnSync would leave every log line of the round queued in
 * the server's memory (velodata logs each request; its heap and GC would grow with the bench).
 */
function outputOf(command, args) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
    let text = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (text += chunk));
    child.on("error", reject);
    child.on("close", () => resolveRun(text));
  });
}

// Clock ticks per second of /proc/<pid>/stat's times (Linux; 100 nearly everywhere).
const ticksPerSecond =
  Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout) || 100;

/**
 * CPU seconds (user + system, every thread) used so far by a process and the processes it started
 * (nginx's worker), from /proc; NaN where /proc is missing. Counted per round, it gives the CPU
 * each answer costs, which the other processes sharing the machine disturb far less than the
 * requests/s and p99 (they take cores away, not work from the server).
 */
async function cpuSeconds(pid) {
  let ticks = 0;
  const pending = [pid];
  while (pending.length > 0) {
    const at = pending.pop();
    const stat = await readFile(`/proc/${at}/stat`, "utf8").catch(() => null);
    if (stat === null) return Number.NaN;
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    ticks += Number(fields[11]) + Number(fields[12]);
    const children = await readFile(`/proc/${at}/task/${at}/children`, "utf8").catch(() => "");
    for (const child of children.split(" ").filter(Boolean)) pending.push(Number(child));
  }
  return ticks / ticksPerSecond;
}

/** One round: requests/s, p99 ms, bytes/s, and how many answers were not 2xx/3xx. */
async function load(url, connections, gzip, seconds = roundSeconds) {
  if (wrk) {
    const args = [
      "-t2",
      `-c${connections}`,
      `-d${seconds}s`,
      "--latency",
      ...(gzip ? ["-H", "Accept-Encoding: gzip"] : []),
      url,
    ];
    const text = await outputOf(wrk, args);
    const unit = { us: 0.001, ms: 1, s: 1000 };
    const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(text);
    const transfer = /Transfer\/sec:\s+([\d.]+)([KMG]?B)/.exec(text);
    const scale = { B: 1, KB: 2 ** 10, MB: 2 ** 20, GB: 2 ** 30 };
    return {
      rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1]),
      p99: p99 ? Number(p99[1]) * unit[p99[2]] : Number.NaN,
      bytesPerSecond: transfer ? Number(transfer[1]) * scale[transfer[2]] : Number.NaN,
      errors: Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0),
      requests: Number(/(\d+) requests in/.exec(text)?.[1]),
    };
  }
  const args = [
    "-c",
    String(connections),
    "-d",
    String(seconds),
    "-j",
    ...(gzip ? ["-H", "accept-encoding=gzip"] : []),
    url,
  ];
  const result = JSON.parse(await outputOf(autocannon, args));
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    bytesPerSecond: result.throughput.average,
    errors: result.non2xx,
    requests: result.requests.total,
  };
}

console.log(
  `\n### Serving on loopback, ${wrk ? "wrk -t2" : "autocannon"}, ${roundSeconds} s rounds, median of ${rounds} interleaved\n`,
);
const results = new Map(); // `${answer}|${gzip}|${peer}` → rounds
const running = new Map();
// A peer that fails to start ends the run: the servers started before it must not outlive it.
process.on("exit", () => {
  for (const { child } of running.values()) child.kill();
  for (const child of companions) child.kill();
});
for (const peer of peers) {
  const port = await freePort();
  running.set(peer.name, { port, child: await peer.start(port) });
}
for (const gzip of [false, true])
  for (const answer of answers) {
    // Not measured: a fresh server's first requests of an answer are its JIT's warm-up (and its
    // young generation's growth), not the steady state the rounds compare.
    for (const peer of peers) {
      if (gzip && !peer.gzip) continue;
      const { port } = running.get(peer.name);
      await load(peer.url(port, answer), answer.connections, gzip, WARM_UP_SECONDS);
    }
    // Each round starts with another peer: the first measured after a pause was seen slower (a
    // 0.72× between two servers of the same code, equal when alternated by hand).
    for (let round = 0; round < rounds; round++)
      for (const peer of [
        ...peers.slice(round % peers.length),
        ...peers.slice(0, round % peers.length),
      ]) {
        if (gzip && !peer.gzip) continue;
        const { port } = running.get(peer.name);
        const key = `${answer.name}|${gzip}|${peer.name}`;
        const list = results.get(key) ?? [];
        const { child } = running.get(peer.name);
        // The peer's own processes, and the companion it answers through (nginx's key checker).
        const pids = [child.pid, ...(peer.companion?.() ?? []).map((c) => c.pid)];
        const cpuBefore = await Promise.all(pids.map(cpuSeconds));
        const round = await load(peer.url(port, answer), answer.connections, gzip);
        const cpuAfter = await Promise.all(pids.map(cpuSeconds));
        const cpu = cpuAfter.reduce((sum, after, at) => sum + after - cpuBefore[at], 0);
        list.push({ ...round, cpuMicros: (cpu * 1e6) / round.requests });
        results.set(key, list);
      }
  }
for (const { child } of running.values()) await stopProcess(child);
for (const child of companions) await stopProcess(child);

const summary = (answer, gzip, peer) => {
  const list = results.get(`${answer.name}|${gzip}|${peer.name}`);
  if (!list) return null;
  return {
    rps: median(list.map((r) => r.rps)),
    p99: median(list.map((r) => r.p99)),
    mbps: median(list.map((r) => r.bytesPerSecond)) / 1e6,
    cpuMicros: median(list.map((r) => r.cpuMicros)),
    errors: list.reduce((sum, r) => sum + r.errors, 0),
  };
};
const others = peers.filter((peer) => peer.name !== "velodata");
const rows = [];
for (const gzip of [false, true])
  for (const answer of answers) {
    const mine = summary(answer, gzip, peers[0]);
    const cells = peers.map((peer) => {
      const s = summary(answer, gzip, peer);
      if (!s) return "–";
      const big = answer.bytes > 1e7 ? `, ${fmt(s.mbps, 0)} MB/s` : "";
      return `${fmt(s.rps / 1000, 2)}k (p99 ${fmt(s.p99, 1)} ms${big})${s.errors ? ` ⚠ ${s.errors} non-2xx` : ""}`;
    });
    const ratios = others.map((peer) => {
      const s = summary(answer, gzip, peer);
      return s && mine
        ? `${ratio(mine.rps / s.rps, "more")}× (p99 ${ratio(mine.p99 / s.p99, "less")}×)`
        : "–";
    });
    const size =
      answer.bytes > 1e6 ? `${fmt(answer.bytes / 1e6, 1)} MB` : `${fmt(answer.bytes / 1e3, 1)} KB`;
    rows.push([`${answer.name} (${size})${gzip ? ", gzip" : ""}`, ...cells, ...ratios]);
  }
console.log(
  table(
    ["answer", ...peers.map((p) => p.name), ...others.map((p) => `velodata / ${p.name}`)],
    rows,
  ),
);

// CPU per answer beside the table: requests/s and p99 move with whatever else runs on the machine.
console.log(
  "\n### CPU per request (µs, user + system, every thread of the server's processes; median of the rounds)\n",
);
console.log(
  table(
    ["answer", ...peers.map((p) => p.name), ...others.map((p) => `velodata / ${p.name}`)],
    [false, true].flatMap((gzip) =>
      answers.map((answer) => {
        const mine = summary(answer, gzip, peers[0]);
        return [
          `${answer.name}${gzip ? ", gzip" : ""}`,
          ...peers.map((peer) => fmt(summary(answer, gzip, peer)?.cpuMicros ?? Number.NaN, 1)),
          ...others.map((peer) => {
            const s = summary(answer, gzip, peer);
            return s && mine ? `${ratio(mine.cpuMicros / s.cpuMicros, "less")}×` : "–";
          }),
        ];
      }),
    ),
  ),
);

// The production deployment against its two references, on the single-station answer and the rest.
const keyedPeer = peers.find((peer) => peer.name.startsWith("nginx with velodata"));
const plainNginx = peers.find((peer) => peer.name === "nginx (1 worker)");
if (keyedPeer && plainNginx) {
  const against = (answer, gzip, peer) => {
    const keyed = summary(answer, gzip, keyedPeer);
    const other = summary(answer, gzip, peer);
    return keyed && other ? `${ratio(keyed.rps / other.rps, "more")}×` : "–";
  };
  console.log("\n### nginx with velodata key checks, against plain nginx and velodata serve\n");
  console.log(
    table(
      ["answer", "/ plain nginx (target ≥ 0.6×)", "/ velodata serve (target ≥ 2× for one station)"],
      [false, true].flatMap((gzip) =>
        answers.map((answer) => [
          `${answer.name}${gzip ? ", gzip" : ""}`,
          against(answer, gzip, plainNginx),
          against(answer, gzip, peers[0]),
        ]),
      ),
    ),
  );
}
await finish();

/** The sitting again (it can change within a run), then the run's folder goes unless kept. */
async function finish() {
  console.log(`\nthis sitting, at the end: ${sitting()}`);
  if (!keepDir) await rm(dir, { recursive: true, force: true });
}

/**
 * How fast the machine is now, apart from velodata (scripts/bench/sitting.js), on the file system
 * the tree is written to: a run's figures are read against it, at its start and its end.
 */
function sitting() {
  const probe = JSON.parse(
    timed(process.execPath, [join(ROOT, "scripts/bench/sitting.js"), dir]).stdout.trim(),
  );
  const thousands = (perSecond) => `${fmt(perSecond / 1000)}k/s`;
  return (
    `a fixed JS loop ${fmt(probe.loopSeconds, 2)} s, memory touched first ${fmt(probe.touchGBps, 2)} GB/s, ` +
    `700-byte files created ${thousands(probe.createdPerSecond)} and staged and renamed over ` +
    `${thousands(probe.replacedPerSecond)} (${onTmpfs ? "tmpfs" : "on disk"})`
  );
}

/** The same build at a tenth of the network, side by side: the cost must grow linearly. */
async function tenthSideBySide(build) {
  const small = join(dir, "source-100k");
  const smallOut = join(dir, "out-100k");
  await synth({ stations: stations / 10, minutes: 0, out: small, output: memoryOutput() });
  const tenth = phase("build", small, smallOut, [], buildThread(small));
  await rm(small, { recursive: true, force: true });
  await rm(smallOut, { recursive: true, force: true });
  await rm(join(dir, ".out-100k.velodata"), { recursive: true, force: true });
  const steps = STEP_NAMES;
  const row = (name, run) => [
    name,
    fmt(run.total, 2),
    ...steps.map((step) => fmt(run.steps[step], 2)),
    fmt(run.maxRssMB, 0),
  ];
  console.log(
    `\n### Build by steps, ${stations / 10} and ${stations} stations (compress runs inside write)\n`,
  );
  console.log(
    table(
      ["stations", "wall s", "read+validate", "render", "compress", "write", "peak RSS MB"],
      [
        row(String(stations / 10), tenth),
        row(String(stations), build),
        [
          "ratio (10 for linear)",
          ratio(build.total / tenth.total, "less"),
          ...steps.map((step) => ratio(build.steps[step] / tenth.steps[step], "less")),
          ratio(build.maxRssMB / tenth.maxRssMB, "less"),
        ],
      ],
    ),
  );
}
