// The command line: declarations only. Each action normalises its options and calls one typed command.
// Each command's module is imported when it runs: a cron refresh every minute does not load the
// server, the object-storage client or the build's renderers.

import { Command, InvalidArgumentError, Option } from "commander";
import type { NginxCommandOptions } from "./commands/nginx.js";
import type { PublishOptions } from "./commands/publish.js";
import type { ServeHandle, ServeOptions } from "./commands/serve.js";
import { excerpt, toUserError, UserError } from "./errors.js";
import { PRIORITY_PREFIX, writesToJournal } from "./journal.js";
import { notUri } from "./model/uri.js";
import { DEFAULT_BASE_URL } from "./publish/default-base-url.js";
import { DEFAULT_REFRESH_SECONDS } from "./routes/max-age.js";
import { MOST_PER_MINUTE } from "./serve/keys/per-minute.js";
import {
  DEFAULT_DETAILS_FROM,
  DETAILS_FROM_EXPECTED,
  detailsFromEntries,
} from "./serve/status-details.js";

const BASE_URL_VARIABLE = "VELODATA_BASE_URL";

/**
 * Where the base URL parsed came from, for the messages that cannot quote it: the command line's
 * --base-url wins over the variable, which commander then never reads.
 */
const baseUrlFrom = (argv: readonly string[]): string =>
  argv.some((arg) => arg === "--base-url" || arg.startsWith("--base-url="))
    ? "--base-url"
    : BASE_URL_VARIABLE;

// An `@` before the path: `user:password@host`, with a scheme or without one.
const CREDENTIALS = /^(?:[a-z][a-z0-9+.-]*:\/\/)?[^/?#]*@/i;

/** The public base URL: absolute http(s), kept without a trailing slash; `from` names its source. */
function baseUrl(value: string, from: string): string {
  // Not an InvalidArgumentError: commander would print the value, password and all. Checked before
  // parsing: a URL that does not parse, or is not http(s), would be echoed by the refusals below.
  if (CREDENTIALS.test(value))
    throw new UserError(
      `${from} must not hold credentials (user:password@): every GBFS file and the OpenAPI document publish it`,
      ["give the public URL clients use, e.g. https://api.example.org/bikes"],
    );
  // Paths are appended to it: `https://x.org/v?a=1` would publish `https://x.org/v?a=1/gbfs/…`. Not
  // echoed either: a query is where an apiKey or a signature goes.
  if (/[?#]/.test(value))
    throw new UserError(
      `${from} must be a plain base URL, with no query (?) or fragment (#): every GBFS file and the OpenAPI document publish it`,
      ["give the public URL clients use, e.g. https://api.example.org/bikes"],
    );
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError("must be an absolute URL such as https://api.example.org");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new InvalidArgumentError("must start with http:// or https://");
  if (url.username || url.password)
    throw new UserError(
      `${from} must not hold credentials (user:password@): every GBFS file and the OpenAPI document publish it`,
      ["give the public URL clients use, e.g. https://api.example.org/bikes"],
    );
  const base = url.href.replace(/\/+$/, "");
  // Published in every GBFS link and the OpenAPI document: a `|` there fails `format: uri`.
  const problem = notUri(base);
  if (problem) throw new InvalidArgumentError(problem);
  return base;
}

/** An S3-API store's URL: checked here, where a wrong one would otherwise read as a store's failure. */
function storeEndpoint(value: string): string {
  // Not an InvalidArgumentError: commander would print the value, secret and all. Checked before
  // parsing: a secret key with a `/` in it makes a URL that does not parse (and a store's address
  // has no `@` of its own).
  if (value.includes("@"))
    throw new UserError("--endpoint must not hold credentials (user:password@)", [
      "give them as AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, as any AWS client reads them",
    ]);
  // A presigned URL's query holds a signature (and a session token): not echoed either. A store's
  // address has no query; the SDK signs each request itself.
  if (/[?#]/.test(value))
    throw new UserError(
      "--endpoint must be the store's address alone, with no query (?) or fragment (#)",
      [
        "give e.g. https://ACCOUNT.r2.cloudflarestorage.com; the credentials go in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN), as any AWS client reads them",
      ],
    );
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(
      "must be the store's URL, e.g. https://ACCOUNT.r2.cloudflarestorage.com",
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new InvalidArgumentError(
      "must start with https:// (or http:// for a store on this network)",
    );
  return value;
}

/** nginx's `listen`: a port, or an IPv4 address, a [IPv6] address or a host name and a port. */
function listenAddress(value: string): string {
  const found = /^(?:(?:\[[0-9a-fA-F:.]+\]|[\w.-]+):)?(\d{1,5})$/.exec(value);
  if (!found || Number(found[1]) < 1 || Number(found[1]) > 65535)
    throw new InvalidArgumentError("must be PORT or ADDR:PORT, e.g. 80, 127.0.0.1:8081 or [::]:80");
  return value;
}

/**
 * How often cron runs `refresh`: what the GBFS station_status feeds tell consumers (their ttl).
 * `refresh` keeps the tree's unless given one (no default value here, to tell).
 */
const cronRefreshOption = (keepsTree: boolean) => {
  const option = new Option(
    "--refresh <seconds>",
    `seconds between the refreshes of the tree (cron's interval): the GBFS station_status ttl${keepsTree ? ` (default: the tree's, as build was given it; else ${DEFAULT_REFRESH_SECONDS})` : ""}`,
  ).argParser(timerSeconds);
  return keepsTree ? option : option.default(DEFAULT_REFRESH_SECONDS);
};

/** `build`'s and `refresh`'s account of their time, in the benchmark's steps (StepTimes). */
const timingsOption = () =>
  new Option(
    "--timings",
    "also say where the time went: read + validate, render, compress, write (seconds since the process started)",
  );

const baseUrlOption = (defaultText: string, argv: readonly string[]) =>
  new Option(
    "--base-url <url>",
    `public base URL of the API, named by the OpenAPI document and the GBFS files (default: ${defaultText})`,
  )
    .env(BASE_URL_VARIABLE)
    .argParser((value) => baseUrl(value, baseUrlFrom(argv)));

function port(value: string): number {
  // Digits only: Number() reads "" and " " as 0 (a random port) and "0x10" as 16.
  const number = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= 0 && number <= 65535)) {
    throw new InvalidArgumentError("must be a port number from 0 to 65535");
  }
  return number;
}

/**
 * A path given on the command line. Not empty: a `--out "$OUT"` whose variable was never set
 * would otherwise read as the current folder, or as no option at all (serve keeping no tree).
 */
function pathValue(value: string): string {
  if (value === "")
    throw new InvalidArgumentError("must not be empty: give a path (an unset $VARIABLE?)");
  return value;
}

/**
 * An interface's address. Not empty: Node listens on every interface for "" (a `--host "$HOST"`
 * whose variable was never set), which neither the operator meant nor the GBFS links can name.
 */
function host(value: string): string {
  if (value.trim() === "")
    throw new InvalidArgumentError(
      "must be an address, e.g. 127.0.0.1 (0.0.0.0 for every interface): an empty one listens on every interface",
    );
  return value;
}

/** The command line; `argv` is what it parses (a `serve` reads it again in its own thread). */
export function program(argv: readonly string[]): Command {
  const cli = new Command("velodata")
    .description(
      "Publish bike-sharing stations and bike parkings as a static API tree, a bundle and a keyed server.",
    )
    .version("0.1.0")
    // A pointer, not the whole usage text: the error is the line that matters.
    .showHelpAfterError("(add --help to see the options)")
    // Under systemd, commander's own errors (a mistyped option in ExecStart) are marked errors too.
    .configureOutput({
      writeErr: (text) =>
        process.stderr.write(
          writesToJournal(2) ? text.replace(/^(?=.)/gm, PRIORITY_PREFIX.error) : text,
        ),
    });

  cli
    .command("validate")
    .description("check the source data and report every problem; writes nothing")
    .requiredOption(
      "-s, --source <dir>",
      "source folder (contracts.json, stations.json|csv, parkings.json|csv, states.json, portal.json)",
      pathValue,
    )
    .option("--state <file>", "station states file (default: <source>/states.json)", pathValue)
    .option(
      "--all",
      "list every problem on a line of its own (by default, a kind of 6 problems or more is said by its first 3 and one line counting the rest)",
    )
    .option("--stale-minutes <n>", "a station not reported for this long is stale", positive, 15)
    .option("--max-stale <percent>", "warn past this share of stale stations", percent, 25)
    .action(async (options: { source: string; state?: string; all?: boolean }) => {
      const { validate } = await import("./commands/validate.js");
      await validate(options);
    });

  cli
    .command("build")
    .description("build the static tree (API answers and downloads) into --out, replacing it whole")
    .requiredOption("-s, --source <dir>", "source folder", pathValue)
    .option("-o, --out <dir>", "output folder", pathValue, "out")
    .option("--state <file>", "station states file (default: <source>/states.json)", pathValue)
    .addOption(baseUrlOption(DEFAULT_BASE_URL, argv))
    .addOption(cronRefreshOption(false))
    .option("--stale-minutes <n>", "a station not reported for this long is stale", positive, 15)
    .option(
      "--max-stale <percent>",
      "warn past this share of stale stations (published all the same)",
      percent,
      25,
    )
    .addOption(timingsOption())
    .action(
      async (options: {
        source: string;
        out: string;
        state?: string;
        baseUrl?: string;
        refresh: number;
        staleMinutes: number;
        maxStale: number;
        timings?: boolean;
      }) => {
        const thread = await import("./commands/command-thread.js");
        if (!thread.inCommandThread()) {
          (await import("./tree/readable-by-all.js")).letAllReadTree();
          const { buildStopped } = await import("./commands/build-stopped.js");
          const { sizeHeapForBuilding } = await import("./commands/build-heap.js");
          const startedAt = Date.now();
          process.exitCode = await thread.runInThread(argv, {
            stopped: () => buildStopped(options.out, startedAt),
            ...sizeHeapForBuilding(options.source, options.state),
          });
          return;
        }
        const { build } = await import("./commands/build.js");
        await build({ ...options, refreshSeconds: options.refresh });
      },
    );

  cli
    .command("preview")
    .description("serve a built tree locally the way a static host would")
    .option("-o, --out <dir>", "tree to serve", pathValue, "out")
    .addOption(new Option("-p, --port <n>", "port").env("PORT").argParser(port).default(8080))
    .option("--host <host>", "interface to listen on", host, "127.0.0.1")
    .action(async (options: { out: string; port: number; host: string }) => {
      const { preview } = await import("./commands/preview.js");
      await preview(options);
    });

  cli
    .command("serve")
    .description(
      "serve the API with keys from memory, refreshing station states every --refresh seconds",
    )
    .requiredOption("-s, --source <dir>", "source folder", pathValue)
    .requiredOption("-k, --keys <file>", "keys file (see velodata keys)", pathValue)
    .option("-o, --out <dir>", "also keep this tree on disk up to date", pathValue)
    .addOption(new Option("-p, --port <n>", "port").env("PORT").argParser(port).default(8080))
    .option("--host <host>", "interface to listen on", host, "127.0.0.1")
    .option("--refresh <seconds>", "seconds between refreshes", timerSeconds, 60)
    .option(
      "--state <file>",
      "states file read at each refresh (default: <source>/states.json)",
      pathValue,
    )
    .option("--simulate", "simulate the network's activity instead of reading a states file")
    .option("--seed <n>", "seed of the simulator, for a repeatable run", whole)
    .option(
      "--demo-key",
      "also accept the documented demo key (for trying it out, never in production)",
    )
    .addOption(baseUrlOption("http://HOST:PORT it listens on", argv))
    .option(
      "--max-missing <percent>",
      "refuse a states file leaving out more than this share of the stations reported before",
      percent,
      10,
    )
    .option(
      "--max-removed <percent>",
      "refuse an edit of the static source no longer listing more than this share of the stations published (a file cut short?); a restart publishes any network",
      percent,
      10,
    )
    .option("--stale-minutes <n>", "a station not reported for this long is stale", positive, 15)
    .option(
      "--max-stale <percent>",
      "/status says ok: false past this share of stale stations",
      percent,
      25,
    )
    .option(
      "--max-connections <n>",
      "open connections at most (idle ones make room, then request heads coming for over a second)",
      positive,
      1000,
    )
    .option("--idle-timeout <seconds>", "close a connection idle this long", timerSeconds, 10)
    .option(
      "--max-key-failures <n>",
      "answer 429 to an address after n wrong keys within a minute (default: no limit)",
      positive,
    )
    .option(
      "--status-details-from <networks>",
      `clients who see /status whole (paths, errors, keys, memory; others see its health): ${DETAILS_FROM_EXPECTED} (default: this machine, ${DEFAULT_DETAILS_FROM.join(",")})`,
      statusDetailsFrom,
    )
    .option(
      "--no-request-log",
      "no line per answered request (errors, warnings and refreshes are still logged)",
    )
    .action(async (options: Omit<ServeOptions, "output">) => {
      if (options.simulate && options.state)
        throw new UserError("--state and --simulate exclude each other: choose one");
      if (options.seed !== undefined && !options.simulate)
        throw new UserError("--seed seeds the simulator: it goes with --simulate");
      const thread = await import("./commands/command-thread.js");
      if (!thread.inCommandThread()) {
        (await import("./tree/readable-by-all.js")).letAllReadTree();
        const out = options.out;
        const { dropOwnMarks } = await import("./tree/lock.js");
        const { layoutOf } = await import("./tree/layout.js");
        const { tuneThreadsForServing } = await import("./serve/heap-tuning.js");
        tuneThreadsForServing();
        process.exitCode = await thread.runInThread(argv, {
          passStopSignals: true,
          ...(out ? { afterStopDuringStart: () => dropOwnMarks(layoutOf(out)) } : {}),
        });
        return;
      }
      const { serve } = await import("./commands/serve.js");
      stopOnSignals(await serve(options), thread.onStopSignal);
    });

  cli
    .command("refresh")
    .description(
      "update a built tree once from a new states file, rewriting only the files that change (and the static answers too when the source changed); run it from cron for static hosting",
    )
    .requiredOption("-s, --source <dir>", "source folder", pathValue)
    .requiredOption("--state <file>", "station states file", pathValue)
    .option("-o, --out <dir>", "the tree to update", pathValue, "out")
    .addOption(
      baseUrlOption(
        `the one the tree names, as build was given it; else ${DEFAULT_BASE_URL}`,
        argv,
      ),
    )
    .option(
      "--max-missing <percent>",
      "refuse a states file leaving out more than this share of the stations reported before",
      percent,
      10,
    )
    .option(
      "--max-removed <percent>",
      "refuse a changed source no longer listing more than this share of the stations published (a wrong --source?); build publishes any network",
      percent,
      10,
    )
    .addOption(cronRefreshOption(true))
    .option("--stale-minutes <n>", "a station not reported for this long is stale", positive, 15)
    .option(
      "--max-stale <percent>",
      "warn (on stderr, which cron mails) past this share of stale stations",
      percent,
      25,
    )
    .addOption(timingsOption())
    .action(
      async (options: {
        source: string;
        state: string;
        out: string;
        baseUrl?: string;
        maxMissing: number;
        maxRemoved: number;
        refresh?: number;
        staleMinutes: number;
        maxStale: number;
        timings?: boolean;
      }) => {
        (await import("./tree/readable-by-all.js")).letAllReadTree();
        const { refresh } = await import("./commands/refresh.js");
        await refresh({
          ...options,
          ...(options.refresh === undefined ? {} : { refreshSeconds: options.refresh }),
        });
      },
    );

  cli
    .command("nginx")
    .description(
      "print an nginx configuration (http context) serving --tree, with velodata serve checking keys",
    )
    .option(
      "--name <name>",
      "this instance's name, prefixing nginx's http-level names: one per configuration in one nginx (default: velodata)",
    )
    .requiredOption("--tree <dir>", "the published tree (velodata serve --out DIR)", pathValue)
    .requiredOption("--upstream <url>", "where velodata serve listens, e.g. http://127.0.0.1:8080")
    .option(
      "--listen <addr>",
      "nginx listen address: PORT or ADDR:PORT (default: 80, or 443 with TLS)",
      listenAddress,
    )
    .option(
      "--server-name <names...>",
      "host names answered, as in --base-url (e.g. api.example.org); others go to nginx's default server",
    )
    .option(
      "--tls-certificate <file>",
      "certificate (chain) file: listen with TLS and HTTP/2",
      pathValue,
    )
    .option("--tls-key <file>", "the certificate's private key file", pathValue)
    .option(
      "--nginx-version <version>",
      "the nginx it is for, as nginx -v says it (default: the one on PATH), which says how HTTP/2 is turned on",
    )
    .option(
      "--cache-dir <dir>",
      "nginx's cache of key checks, on a memory file system: its files name the keys (default: /run/nginx-NAME)",
      pathValue,
    )
    .option(
      "--key-cache <seconds>",
      "seconds a valid key is trusted between checks, at most 10 (default: 5)",
      positive,
    )
    .option(
      "--max-concurrent-per-address <n>",
      "requests one client address may have in progress at once, then 429; 0: none, for a CDN or proxy in front (default: 32)",
      whole,
    )
    .option(
      "--refresh <seconds>",
      `serve's --refresh: when dynamic answers expire (default: the tree's, as serve or build recorded it; else ${DEFAULT_REFRESH_SECONDS})`,
      timerSeconds,
    )
    .option(
      "--access-log <file>",
      "access log, never showing query strings (default: /var/log/nginx/NAME-access.log)",
      pathValue,
    )
    .option("--no-brotli", "leave brotli_static out (default: on when Debian's module is enabled)")
    .option(
      "--output <file>",
      "write the configuration to this file, whole or not at all (default: stdout)",
      pathValue,
    )
    .action(
      async ({
        output,
        ...options
      }: Omit<NginxCommandOptions, "output" | "outputFile"> & {
        brotli: boolean;
        output?: string;
      }) => {
        const { nginx } = await import("./commands/nginx.js");
        nginx({
          ...options,
          ...(output === undefined ? {} : { outputFile: output }),
          // commander's default for --no-brotli is true: only an explicit --no-brotli overrides detection
          brotli: options.brotli === false ? false : undefined,
        });
      },
    );

  cli
    .command("publish")
    .description(
      "upload what changed in a built tree to an S3-API store (run it from cron after refresh)",
    )
    .option("-o, --out <dir>", "the tree to publish", pathValue, "out")
    .requiredOption("--to <url>", "where: s3://BUCKET/PREFIX")
    .option(
      "--endpoint <url>",
      "a non-AWS store's URL (R2, GCS, MinIO…); path-style addressing",
      storeEndpoint,
    )
    .option("--region <region>", "the store's region (default: AWS_REGION)")
    .option("--include-keyed", "also upload the keyed API (the CDN must then check the keys)")
    .option(
      "--max-age <seconds>",
      `Cache-Control max-age of the dynamic answers (default: the tree's refresh period, its GBFS station_status ttl; else ${DEFAULT_REFRESH_SECONDS})`,
      // Bounded as a refresh period is: a live answer kept by caches for longer is a slip.
      timerSeconds,
    )
    .option(
      "--keep-removed <seconds>",
      "keep an object that left the tree this long before a run deletes it, for caches still linking to it (default: the longest max-age of the objects, 3600 unless --max-age is longer; 0: at once); keyed answers left out for want of --include-keyed go at once",
      keptSeconds,
    )
    .option("--concurrency <n>", "requests in flight at most", positive, 16)
    .option(
      "--gzip",
      "store the tree's gzip variants (Content-Encoding: gzip) instead of the plain bytes: less to send, but every client gets gzip, asked for or not",
    )
    .option(
      "--dry-run",
      "read the tree and the store, print what a run would put, delete and keep; write nothing",
    )
    .option("--verbose", "with --dry-run: list every path, not the first 10 of each kind")
    .action(async (options: PublishOptions) => {
      if (options.verbose && !options.dryRun)
        throw new UserError("--verbose lists a dry run's plan: it goes with --dry-run");
      const { publish, publishDryRun } = await import("./commands/publish.js");
      await (options.dryRun ? publishDryRun(options) : publish(options));
    });

  cli
    .command("synth")
    .description(
      "write a seeded synthetic network and minutes of states as a source folder (sizing, benchmarks)",
    )
    .requiredOption("--stations <n>", "number of stations", positive)
    .option("--contracts <n>", "number of contracts (default: one per 2,000 stations)", positive)
    .option("--changed <share>", "share of stations changed each minute, 0 to 1", share, 0.1)
    .option("--minutes <n>", "minutes of states after the first", whole, 3)
    .option("--seed <n>", "seed: the same seed writes the same files", whole, 1)
    .option(
      "--start <time>",
      "when the first minute's states are reported, the next ones a minute apart: an ISO 8601 time or now (default: a fixed time, 2026-01-05T08:00:00Z, so that the same seed writes the same files)",
      instant,
    )
    .requiredOption("-o, --out <dir>", "source folder to write", pathValue)
    .action(
      async (options: {
        stations: number;
        contracts?: number;
        changed: number;
        minutes: number;
        seed: number;
        start?: Date;
        out: string;
      }) => {
        const { synth } = await import("./commands/synth.js");
        await synth(options);
      },
    );

  const keys = cli.command("keys").description("manage API keys (stored hashed)");
  keys
    .command("add")
    .description("create a key and print it once")
    .requiredOption("-k, --keys <file>", "keys file (created if missing)", pathValue)
    .option("-l, --label <label>", "who or what the key is for")
    .option(
      "--per-minute <n>",
      "at most n requests a minute with this key, then 429 (default: no limit)",
      perMinute,
    )
    .action(async (options: { keys: string; label?: string; perMinute?: number }) => {
      const { keysAdd } = await import("./commands/keys.js");
      await keysAdd(options);
    });
  keys
    .command("list")
    .description(
      "show id, creation, revocation, limit a minute and label of every key (never the keys)",
    )
    .requiredOption("-k, --keys <file>", "keys file", pathValue)
    .action(async (options: { keys: string }) => {
      const { keysList } = await import("./commands/keys.js");
      await keysList(options);
    });
  keys
    .command("revoke <id>")
    .description("revoke a key by its id; a running server refuses it within seconds")
    .requiredOption("-k, --keys <file>", "keys file", pathValue)
    .action(async (id: string, options: { keys: string }) => {
      const { keysRevoke } = await import("./commands/keys.js");
      await keysRevoke({ ...options, id });
    });
  keys
    .command("limit <id> <per-minute>")
    .description(
      'allow a key at most <per-minute> requests a minute, then 429 ("none": no limit); a running server applies it within seconds',
    )
    .requiredOption("-k, --keys <file>", "keys file", pathValue)
    .action(async (id: string, limit: string, options: { keys: string }) => {
      const { keysLimit } = await import("./commands/keys.js");
      await keysLimit({ ...options, id, perMinute: limitArgument(limit) });
    });

  checkRequiredLast(cli);
  return cli;
}

/**
 * Commander checks the required options before it looks for unknown ones: `build --sourc x` said
 * that --source was missing, not that --sourc is no option. Each command's required options are
 * checked once the unknown ones have been (a hook before the action runs), with commander's own
 * words, and its help says they are required, as it does not.
 */
function checkRequiredLast(cli: Command): void {
  const required = new Map<Command, Option[]>();
  const gather = (command: Command) => {
    const options = command.options.filter((option) => option.mandatory);
    for (const option of options) {
      option.makeOptionMandatory(false);
      option.description = `${option.description} (required)`;
    }
    if (options.length > 0) required.set(command, options);
    command.commands.forEach(gather);
  };
  gather(cli);
  cli.hook("preAction", (_, action) => {
    for (const option of required.get(action) ?? [])
      if (action.getOptionValue(option.attributeName()) === undefined)
        action.error(`error: required option '${option.flags}' not specified`, {
          code: "commander.missingMandatoryOptionValue",
        });
  });
}

/**
 * A number as people write it: Number() alone reads "" and " " (an unset $VARIABLE in a cron or
 * unit line) as 0, "0x10" as 16 and "1e3" as 1000.
 */
const decimal = (value: string): number =>
  /^\s*(?:\d+(?:\.\d*)?|\.\d+)\s*$/.test(value) ? Number(value) : Number.NaN;

function percent(value: string): number {
  const number = decimal(value);
  if (!Number.isFinite(number) || number < 0 || number > 100)
    throw new InvalidArgumentError(
      "must be a percentage from 0 to 100, in digits (e.g. 10 or 2.5)",
    );
  return number;
}

function positive(value: string): number {
  const number = decimal(value);
  if (!Number.isInteger(number) || number < 1)
    throw new InvalidArgumentError("must be a whole number above 0, in digits (e.g. 1000)");
  return number;
}

function perMinute(value: string): number {
  const number = positive(value);
  if (number > MOST_PER_MINUTE)
    throw new InvalidArgumentError(`must be at most ${MOST_PER_MINUTE} (a thousand a second)`);
  return number;
}

/** --status-details-from, repeatable: its entries added to those given before. */
function statusDetailsFrom(value: string, previous?: string[]): string[] {
  try {
    return detailsFromEntries(value, previous);
  } catch (cause) {
    throw new InvalidArgumentError((cause as Error).message);
  }
}

/** `keys limit`'s <per-minute>: a number of requests, or "none". */
function limitArgument(value: string): number | null {
  if (value.toLowerCase() === "none") return null;
  try {
    return perMinute(value);
  } catch (cause) {
    throw new UserError(`<per-minute> ${(cause as Error).message}, or none to remove the limit`);
  }
}

// Node's timers count milliseconds in 32 bits: a longer delay fires at once, every time.
const MAX_TIMER_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

function timerSeconds(value: string): number {
  return secondsFrom(1, value);
}

/** `publish --keep-removed`: at once (0) up to the longest `--max-age`, as long as a cache keeps an object. */
function keptSeconds(value: string): number {
  return secondsFrom(0, value);
}

/** Whole seconds from `least` up to what Node's timers (and the dates they make) can hold. */
function secondsFrom(least: number, value: string): number {
  const number = decimal(value);
  if (!Number.isInteger(number) || number < least || number > MAX_TIMER_SECONDS)
    throw new InvalidArgumentError(
      `must be a whole number of seconds from ${least} to ${MAX_TIMER_SECONDS} (about 24 days), in digits`,
    );
  return number;
}

function whole(value: string): number {
  const number = decimal(value);
  if (!Number.isInteger(number) || number < 0)
    throw new InvalidArgumentError("must be a whole number, 0 or more, in digits");
  return number;
}

/** `now`, or a time with its date, time of day and offset (`2026-01-05T08:00:00Z`). */
function instant(value: string): Date {
  if (value === "now") return new Date();
  const time = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value)
    ? Date.parse(value)
    : Number.NaN;
  if (Number.isNaN(time))
    throw new InvalidArgumentError(
      "must be now or an ISO 8601 time with its offset, e.g. 2026-01-05T08:00:00Z",
    );
  return new Date(time);
}

function share(value: string): number {
  const number = decimal(value);
  if (!(number >= 0 && number <= 1))
    throw new InvalidArgumentError("must be a share from 0 to 1, e.g. 0.1 for 10%");
  return number;
}

/** SIGINT/SIGTERM: stop accepting, let requests in flight finish, exit 0. */
function stopOnSignals(
  handle: ServeHandle,
  onStopSignal: (stop: (signal: string) => void, reload: () => void) => void,
): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    handle.log(`${signal}: stopping after the requests in flight`);
    void handle.stop().then(() => process.exit(0));
  };
  const reload = () => {
    if (stopping) return;
    handle.log(
      "SIGHUP: refreshing now, the static source's edit too if there is one (the keys file is read again within a second of any change)",
    );
    void handle.refreshNow();
  };
  onStopSignal(stop, reload);
}

/** The one place errors become exit codes: user errors print plainly, anything else is a bug. */
export async function main(argv: readonly string[]): Promise<void> {
  quietOnClosedPipe(process.stdout);
  quietOnClosedPipe(process.stderr);
  try {
    await program(argv).parseAsync(argv);
  } catch (thrown) {
    const cause = toUserError(thrown);
    // Under systemd, each line is marked an error: the journal records a service's stderr as info.
    const priority = writesToJournal(2) ? PRIORITY_PREFIX.error : "";
    const say = (line: string) => process.stderr.write(`${priority}${line}\n`);
    if (cause instanceof UserError) {
      say(`velodata: ${cause.message}`);
      for (const line of cause.details) say(`  ${line}`);
      if (process.env.VELODATA_DEBUG && cause.cause instanceof Error)
        process.stderr.write(`${cause.cause.stack}\n`);
    } else {
      const message = cause instanceof Error ? cause.message : String(cause);
      say(
        `velodata: internal error (this is a bug in velodata, please report it): ${excerpt(message, 500)}`,
      );
      if (process.env.VELODATA_DEBUG && cause instanceof Error)
        process.stderr.write(`${cause.stack}\n`);
    }
    process.exitCode = 1;
  }
}

/**
 * `velodata keys list | head`, `velodata build … 2>&1 | head -50` in a crontab: the reader left,
 * which is no error of ours. The command goes on without a word more and exits as it ends: leaving
 * at once ended a build half written with status 0 (and nothing published).
 */
function quietOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
}
