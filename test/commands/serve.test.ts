// `velodata serve` as a process: starts, answers, and stops cleanly on SIGTERM with a request in flight.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, watch } from "node:fs";
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { get } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { DEMO_KEY } from "../../src/commands/serve.js";
import {
  besidesFixtureWarning,
  ended,
  FIXTURES,
  fixtureCopy,
  JOINED_BROTLI_START,
  networkWithLyonKept,
  ROOT,
  runCli,
  tempDir,
} from "../helpers.js";

function startServe(
  args: string[],
  nodeOptions: string[] = [],
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(
    process.execPath,
    [...nodeOptions, join(ROOT, "bin/velodata.js"), "serve", ...args],
    { cwd: ROOT },
  );
  let output = "";
  child.stderr?.on("data", (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (chunk) => {
      output += chunk;
      const url = /serving .* at (http:\/\/\S+),/.exec(output)?.[1];
      if (url) resolve({ child, url, output: () => output });
    });
    child.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}

/** Resolves when the process has printed `text`: on its output's events, not after a guessed delay. */
function waitFor(child: ChildProcess, output: () => string, text: string): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!output().includes(text)) return;
      child.stdout?.off("data", check);
      resolve();
    };
    child.stdout?.on("data", check);
    check();
  });
}

/** An answer's bytes as sent (not decoded), and its Content-Encoding. */
function rawGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ body: Buffer; encoding: string | undefined }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ body: Buffer.concat(chunks), encoding: response.headers["content-encoding"] }),
      );
      response.on("error", reject);
    }).on("error", reject);
  });
}

describe("velodata serve", () => {
  it("finishes a request in flight on SIGTERM, then exits 0", async () => {
    const keys = join(await tempDir(), "keys.json");
    const { child, url, output } = await startServe([
      "--source",
      FIXTURES,
      "--keys",
      keys,
      "--port",
      "0",
      "--simulate",
      "--demo-key",
    ]);
    const { hostname, port } = new URL(url);
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));

    // A whole request first: once it is answered, the server has surely accepted the connection.
    const socket = connect(Number(port), hostname);
    await new Promise((resolve) => socket.once("connect", resolve));
    const request = `GET /vls/v3/contracts?apiKey=${DEMO_KEY} HTTP/1.1\r\nHost: ${hostname}\r\n`;
    socket.write(`${request}\r\n`);
    await new Promise((resolve) => socket.once("data", resolve));
    // Half a second request: in flight when the signal comes. A round trip on another connection
    // makes sure the server has read those bytes before it is told to stop.
    socket.write(request);
    expect((await fetch(`${url}/status`)).status).toBe(200);
    child.kill("SIGTERM");
    await waitFor(child, output, "SIGTERM: stopping after the requests in flight");
    await expect(fetch(`${url}/status`)).rejects.toThrow();
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk));
    const closed = new Promise((resolve) => socket.on("close", resolve));
    socket.write("\r\n");
    await closed;

    expect(answer, output()).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(answer).toContain('"commercial_name":"dublinbikes"');
    expect(await exited).toBe(0);
    expect(output()).toContain("SIGTERM: stopping after the requests in flight");
    expect(output()).toContain("GET /vls/v3/contracts?apiKey=<redacted> 200");
    // Written off the main thread, the lines keep the order they were logged in.
    const at = (text: string) => output().indexOf(text);
    expect(at("serving ")).toBeGreaterThanOrEqual(0);
    expect(at("demo key enabled")).toBeGreaterThan(at("serving "));
    expect(at("try:")).toBeGreaterThan(at("demo key enabled"));
    expect(at("GET /vls/v3/contracts?apiKey=<redacted> 200")).toBeGreaterThan(at("try:"));
    expect(output()).toContain(`open ${url}/ in a browser: the portal`);
    expect(output()).not.toContain("no other machine can reach");
  });

  it("stops at once on SIGTERM during its start, which would otherwise hold the signal until done", async () => {
    // A thread busy with its start (rendering a large network): a stand-in that never ends it.
    const dir = await tempDir();
    const busy = join(dir, "busy.mjs");
    // Written straight to the process's stdout: a busy thread's own stream is never flushed.
    await writeFile(
      busy,
      'import { writeSync } from "node:fs";\nwriteSync(1, "starting\\n");\nfor (;;) {}\n',
    );
    const threads = new URL("../../dist/commands/command-thread.js", import.meta.url).href;
    // A file, not --input-type: the thread would inherit that flag, refused for a file.
    const main = join(dir, "main.mjs");
    await writeFile(
      main,
      `const { runInThread } = await import(${JSON.stringify(threads)});
      process.exitCode = await runInThread([], {
        passStopSignals: true,
        entry: new URL(${JSON.stringify(pathToFileURL(busy).href)}),
      });`,
    );
    const child = spawn(process.execPath, [main]);
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    try {
      await waitFor(child, () => output, "starting");
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(output).toMatch(/Z SIGTERM during the start: stopping now\n$/);
    } finally {
      child.kill("SIGKILL"); // should the stop fail, its thread spins on: not past the test
    }
  });

  it("lets go of its marks on its --out when stopped during its start", async () => {
    const dir = await tempDir();
    const source = join(dir, "source");
    // Big enough that its start (reading, rendering) outlasts the moment its mark is seen.
    const synth = ["synth", "--stations", "20000", "--minutes", "0", "--out", source];
    expect((await runCli(synth)).code).toBe(0);
    // Made here, so that its marks can be watched for; serve takes a store it finds.
    const store = join(dir, ".out.velodata");
    await mkdir(store);
    const marked = new Promise<void>((resolve) => {
      const watcher = watch(store, (_, name) => {
        if (name !== "kept-by-serve") return;
        watcher.close();
        resolve();
      });
    });
    const keys = join(dir, "keys.json");
    const args = ["--source", source, "--keys", keys, "--out", join(dir, "out"), "--port", "0"];
    const child = spawn(process.execPath, [join(ROOT, "bin/velodata.js"), "serve", ...args]);
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    try {
      // A serve that ends before its mark is seen says why, rather than the test waiting for ever.
      await Promise.race([
        marked,
        exited.then((code) => {
          throw new Error(`serve exited with ${code} before its mark was seen: ${output}`);
        }),
      ]);
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(output).toMatch(/Z SIGTERM during the start: stopping now\n$/);
      expect([existsSync(join(store, "kept-by-serve")), existsSync(join(store, "lock"))]).toEqual([
        false,
        false,
      ]);
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("refreshes at once on SIGHUP, its period starting again, and goes on serving", async () => {
    const keys = join(await tempDir(), "keys.json");
    const args = ["--source", FIXTURES, "--keys", keys, "--port", "0", "--simulate"];
    const { child, url, output } = await startServe([...args, "--refresh", "3600"]);
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const nextRefresh = async () =>
      Date.parse(
        ((await (await fetch(`${url}/status`)).json()) as { nextRefreshAt: string }).nextRefreshAt,
      );
    try {
      const due = await nextRefresh();
      const reloaded = Date.now();
      child.kill("SIGHUP");
      await waitFor(child, output, "refreshed from the simulator");
      expect(output()).toContain("SIGHUP: refreshing now");
      // A period from the reload: what it published expires at the next refresh, not before it.
      const dueAfter = await nextRefresh();
      expect(dueAfter).toBeGreaterThan(due);
      expect(dueAfter).toBeGreaterThanOrEqual(reloaded + 3_600_000);
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL"); // a failed assertion leaves no server behind
    }
  });

  it("serves each list's variants made by a refresh, the lists of all joined of their contracts' pieces, also where a contract did not change", async () => {
    const dir = await tempDir();
    const { source, nextMinute } = await networkWithLyonKept(dir);
    const states = join(dir, "states.json");
    await copyFile(join(source, "states.json"), states);
    const keys = join(dir, "keys.json");
    const args = ["--source", source, "--state", states, "--keys", keys, "--port", "0"];
    const { child, url, output } = await startServe([...args, "--refresh", "3600", "--demo-key"]);
    try {
      // Each contract's lists, their variants joined of their own pieces (pieces pay on this
      // network), and its GBFS station_status feeds, small bodies compressed by the refresher's
      // worker of its own.
      const contracts = JSON.parse(
        (await rawGet(`${url}/vls/v3/contracts?apiKey=${DEMO_KEY}`)).body.toString(),
      ) as { name: string }[];
      expect(contracts.length).toBe(3);
      const lists = contracts.flatMap(({ name }) => [
        `/vls/v1/stations?contract=${name}&`,
        `/vls/v3/stations?contract=${name}&`,
        `/contracts/${name}/gbfs/station_status.json?`,
        `/contracts/${name}/gbfs/v3/station_status.json?`,
      ]);
      const before = new Map<string, Buffer>();
      for (const list of lists)
        before.set(list, (await rawGet(`${url}${list}apiKey=${DEMO_KEY}`)).body);
      await writeFile(states, nextMinute);
      child.kill("SIGHUP");
      // Said once the variants of what changed are served.
      await waitFor(child, output, "refreshed from");
      for (const list of ["/vls/v3/stations?", "/vls/v1/stations?"]) {
        const identity = await rawGet(`${url}${list}apiKey=${DEMO_KEY}`);
        const br = await rawGet(`${url}${list}apiKey=${DEMO_KEY}`, { "Accept-Encoding": "br" });
        expect(br.encoding, list).toBe("br");
        expect([...br.body.subarray(0, 6)], list).toEqual(JOINED_BROTLI_START);
        expect(brotliDecompressSync(br.body).equals(identity.body), list).toBe(true);
      }
      for (const list of lists) {
        const identity = (await rawGet(`${url}${list}apiKey=${DEMO_KEY}`)).body;
        // Lyon's stations kept their states; a feed's last_updated is the minute's.
        const kept = list.includes("=lyon&");
        expect(identity.equals(before.get(list) as Buffer), list).toBe(kept);
        for (const [asked, decode] of [
          ["gzip", gunzipSync],
          ["br", brotliDecompressSync],
        ] as const) {
          const sent = await rawGet(`${url}${list}apiKey=${DEMO_KEY}`, {
            "Accept-Encoding": asked,
          });
          expect(sent.encoding, `${list} ${asked}`).toBe(asked);
          expect(decode(sent.body).equals(identity), `${list} ${asked}`).toBe(true);
        }
      }
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("says the request line size its Node takes, when run with another --max-http-header-size", async () => {
    const keys = join(await tempDir(), "keys.json");
    const args = ["--source", FIXTURES, "--keys", keys, "--port", "0", "--simulate"];
    const { child, url } = await startServe(args, ["--max-http-header-size=8192"]);
    try {
      const { hostname, port } = new URL(url);
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), hostname, () =>
          socket.end(`GET /vls/v3/contracts?x=${"a".repeat(9_000)} HTTP/1.1\r\nHost: h\r\n\r\n`),
        );
        let text = "";
        socket.on("data", (chunk) => (text += chunk));
        socket.on("error", reject);
        socket.on("close", () => resolve(text));
      });
      expect(answer).toMatch(/^HTTP\/1\.1 414 /);
      expect(answer).toContain(
        '{"error":"the request line is longer than the 8 KB a server takes"}',
      );
    } finally {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
  });

  it("refuses a states file that is a pipe: it reads it again at every refresh", async () => {
    const dir = await tempDir();
    const fifo = join(dir, "states.fifo");
    execFileSync("mkfifo", [fifo]);
    const args = ["--source", FIXTURES, "--keys", join(dir, "keys.json"), "--state", fifo];
    const result = await runCli(["serve", ...args, "--port", "0"]);
    expect([result.code, besidesFixtureWarning(result.stderr)]).toEqual([
      1,
      `velodata: ${fifo} is not a regular file (a pipe or a device?): the server reads it again at every refresh; give a file the exporter replaces\n`,
    ]);
  });

  it("refuses a states file that is a folder, saying so", async () => {
    const dir = await tempDir();
    const folder = join(dir, "states.json");
    await mkdir(folder);
    const args = ["--source", FIXTURES, "--keys", join(dir, "keys.json"), "--state", folder];
    const result = await runCli(["serve", ...args, "--port", "0"]);
    expect([result.code, besidesFixtureWarning(result.stderr)]).toEqual([
      1,
      `velodata: ${folder} is a folder, not a file: give the states file itself\n`,
    ]);
  });

  it("refuses a port that is not digits, from --port or PORT: no random port for an empty one", async () => {
    const dir = await tempDir();
    const args = ["serve", "--source", FIXTURES, "--keys", join(dir, "keys.json")];
    for (const value of ["", " ", "0x10", "1e3"]) {
      const result = await runCli([...args, "--port", value]);
      expect([result.code, result.stderr], JSON.stringify(value)).toEqual([
        1,
        expect.stringContaining("must be a port number from 0 to 65535"),
      ]);
    }
    const fromEnvironment = await runCli(args, undefined, { PORT: "" });
    expect([fromEnvironment.code, fromEnvironment.stderr]).toEqual([
      1,
      expect.stringContaining("must be a port number from 0 to 65535"),
    ]);
  });

  it("prints, with the demo key, requests to try that each answer 200 on the data served", async () => {
    const dir = await tempDir();
    execFileSync(process.execPath, [
      join(ROOT, "bin/velodata.js"),
      "synth",
      "--stations",
      "60",
      "--out",
      join(dir, "source"),
    ]);
    const args = ["--source", join(dir, "source"), "--keys", join(dir, "keys.json"), "--port", "0"];
    const { child, output } = await startServe([...args, "--simulate", "--demo-key"]);
    try {
      await waitFor(child, output, "/status'");
      const urls = [...output().matchAll(/curl (?:-O )?'(\S+)'/g)].map(
        (match) => match[1] as string,
      );
      expect(urls.length).toBeGreaterThanOrEqual(8);
      for (const url of urls) expect((await fetch(url)).status, url).toBe(200);
    } finally {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
  });

  it("keeps its --out to itself: another build, refresh or server of that tree is refused until it stops", async () => {
    const dir = await tempDir();
    const out = join(dir, "out");
    const keys = join(dir, "keys.json");
    const args = ["--source", FIXTURES, "--keys", keys, "--port", "0", "--out", out];
    const { child } = await startServe(args);
    const states = join(FIXTURES, "states.json");
    const refresh = ["refresh", "--source", FIXTURES, "--state", states, "--out", out];
    try {
      const kept = `${out} is kept by velodata serve (pid ${child.pid}), which writes it at every refresh`;
      for (const command of [refresh, ["build", "--source", FIXTURES, "--out", out]]) {
        const refused = await runCli(command);
        expect([refused.code, refused.stderr], command[0]).toEqual([
          1,
          expect.stringContaining(kept),
        ]);
        // Refused before the source is read (minutes at a million stations): none of its warnings.
        expect(refused.stderr, command[0]).not.toContain("km from");
      }
      const second = await runCli(["serve", ...args]);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`(pid ${child.pid})`);
      // Refused before it listens: its log never says it answers.
      expect(second.stdout + second.stderr).not.toContain("answering at");
    } finally {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    // Stopped, it lets the tree go.
    expect((await runCli(refresh)).code).toBe(0);
  });

  it("warns that a server on every interface publishes an address no client can use, without --base-url", async () => {
    const keys = join(await tempDir(), "keys.json");
    const args = ["--source", FIXTURES, "--keys", keys, "--port", "0", "--simulate"];
    const { child, url, output } = await startServe([...args, "--host", "0.0.0.0"]);
    await waitFor(child, output, "give --base-url");
    expect(output()).toContain(
      `warning: the GBFS discovery files and the OpenAPI document name ${url}, which no other machine can reach`,
    );
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  });

  it("says a base URL with a path reaches it only through a proxy that takes the path off", async () => {
    const keys = join(await tempDir(), "keys.json");
    const args = ["--source", FIXTURES, "--keys", keys, "--port", "0", "--simulate"];
    const base = "https://bikes.example.org/velodata";
    const { child, url, output } = await startServe([...args, "--base-url", `${base}/`]);
    await waitFor(child, output, "takes /velodata off");
    expect(output()).toContain(
      `the base URL ${base} has a path, /velodata: the links published under it reach this server only through a proxy that takes /velodata off (this server answers at /)`,
    );
    const gbfs = await (await fetch(`${url}/contracts/dublin/gbfs/gbfs.json`)).json();
    expect(JSON.stringify(gbfs)).toContain(`${base}/contracts/dublin/gbfs/`);
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  });

  it("keeps the public base URL of the tree it is given with --out, and its own address over a loopback one", async () => {
    const dir = await tempDir();
    const keys = join(dir, "keys.json");
    const base = "https://bikes.example.org";
    const served = async (out: string) => {
      const args = ["--source", FIXTURES, "--keys", keys, "--port", "0", "--out", out];
      const { child, url, output } = await startServe(args);
      const gbfs = await (await fetch(`${url}/contracts/dublin/gbfs/gbfs.json`)).text();
      const exited = new Promise((resolve) => child.on("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      const onDisk = await readFile(join(out, "contracts/dublin/gbfs/gbfs.json"), "utf8");
      return { url, said: output(), gbfs, onDisk };
    };
    const out = join(dir, "out");
    const built = await runCli(["build", "--source", FIXTURES, "--out", out, "--base-url", base]);
    expect(built.code).toBe(0);
    const kept = await served(out);
    expect(kept.said).toContain(
      `the GBFS discovery files and the OpenAPI document name ${base}, the base URL the tree at ${out} was made with (give --base-url to change it)`,
    );
    expect(kept.gbfs).toContain(`"${base}/contracts/dublin/gbfs/`);
    expect(kept.onDisk).toBe(kept.gbfs);
    // A tree made without one names a loopback address: the server names its own.
    const local = join(dir, "local");
    expect((await runCli(["build", "--source", FIXTURES, "--out", local])).code).toBe(0);
    const own = await served(local);
    expect(own.gbfs).toContain(`"${own.url}/contracts/dublin/gbfs/`);
    expect(own.said).not.toContain("was made with");
  });

  it("serves from a thread whose young generation is bigger than Node's default, as /status shows", async () => {
    const keys = join(await tempDir(), "keys.json");
    const args = ["--source", FIXTURES, "--keys", keys, "--port", "0", "--simulate"];
    const { child, url } = await startServe(args);
    const status = (await (await fetch(`${url}/status`)).json()) as {
      memory: { heapLimitBytes: number };
    };
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    // A plain Node process's limit: the same old generation, a young one of at most 3 × 16 MB
    // (the thread's is 3 × 64 MB).
    const plain = Number(
      execFileSync(process.execPath, [
        "-e",
        "process.stdout.write(String(require('node:v8').getHeapStatistics().heap_size_limit))",
      ]),
    );
    expect(status.memory.heapLimitBytes).toBeGreaterThanOrEqual(plain + 64 * 2 ** 20);
  });

  it("says at start when the data fills more than half of Node's heap limit, and how to give it more", async () => {
    const keys = join(await tempDir(), "keys.json");
    const args = ["--source", FIXTURES, "--keys", keys, "--port", "0", "--simulate"];
    // The fixtures take ~23 MB of heap: a limit of ~35 MB is more than half full, as a million
    // stations fill the 4 GB default, with room for the start's peak (24 MB ran out of it at times).
    const small = ["--max-old-space-size=32", "--max-semi-space-size=1"];
    const { child, output } = await startServe(args, small);
    await waitFor(child, output, "heap limit");
    expect(output()).toMatch(
      /warning: the data fills [\d.]+ MB of Node's [\d.]+ MB heap limit: refreshes slow down near it and the server stops past it\. Start it with NODE_OPTIONS=--max-old-space-size=1024/,
    );
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  });

  it("says it ran out of memory, and how to give it more, rather than report a bug", async () => {
    const keys = join(await tempDir(), "keys.json");
    const result = await runCli(
      ["serve", "--source", FIXTURES, "--keys", keys, "--port", "0", "--simulate"],
      undefined,
      { NODE_OPTIONS: "--max-old-space-size=12 --max-semi-space-size=1" },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "velodata: out of memory: the data does not fit in Node's heap limit (--max-old-space-size)\n  start it with NODE_OPTIONS=--max-old-space-size=",
    );
    expect(result.stderr).not.toContain("internal error");
  });

  it("refuses to start on a broken state file, saying where", async () => {
    const keys = join(await tempDir(), "keys.json");
    const child = spawn(process.execPath, [
      join(ROOT, "bin/velodata.js"),
      "serve",
      "--source",
      FIXTURES,
      "--keys",
      keys,
      "--state",
      join(FIXTURES, "contracts.json"),
      "--port",
      "0",
    ]);
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.on("exit", resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('contracts.json: must be an object with an array "states"');
  });

  it("starts with a state in error left out (a restart must not fail on one record), not with many", async () => {
    const source = await fixtureCopy();
    const keys = join(source, "keys.json");
    const states = join(source, "states.json");
    const file = JSON.parse(await readFile(states, "utf8")) as { states: { status: string }[] };
    (file.states[0] as { status: string }).status = "open";
    await writeFile(states, JSON.stringify(file));
    const args = ["--source", source, "--keys", keys, "--port", "0"];
    const { child, url, output } = await startServe(args);
    expect(output()).toContain(
      `warning: ${states}[0] (dublin #42) status: must be one of "OPEN", "CLOSED", got "open": this state is left out, the station published without one (CLOSED) until the feed gives a good one`,
    );
    // Served, that station without a state (/status counts it missing).
    const status = (await (await fetch(`${url}/status`)).json()) as {
      feed: { missingStations: number };
    };
    expect(status.feed.missingStations).toBe(1);
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    // More of the stations than --max-missing allows: the states file is refused.
    for (const state of file.states.slice(0, 60)) state.status = "open";
    await writeFile(states, JSON.stringify(file));
    const refused = await runCli(["serve", ...args]);
    expect(refused.code).toBe(1);
    // The refusal first, in the words of a refresh's (tooManyMissing), then each state in error.
    expect(refused.stderr).toContain(
      "velodata: the source data has 61 errors; the server was not started\n" +
        `  error: ${states}: leaves out 60 of the 413 stations the static source lists (14.5%), more than --max-missing 10% allows: fix the feed, or raise --max-missing if stations really left; ` +
        `60 states in error left out (${states}[0] (dublin #42) status: must be one of "OPEN", "CLOSED", got "open", …)\n`,
    );
    expect(refused.stderr).toContain(
      `  error: ${states}[0] (dublin #42) status: must be one of "OPEN", "CLOSED", got "open"\n`,
    );
  });

  it("refuses to start on a states file without the records of more stations than --max-missing allows, naming them", async () => {
    const source = await fixtureCopy();
    const keys = join(source, "keys.json");
    const states = join(source, "states.json");
    // Dublin's 114 states alone: the file has no record of 299 of the 413 stations listed.
    const file = JSON.parse(await readFile(states, "utf8")) as { states: { contract: string }[] };
    file.states = file.states.filter((state) => state.contract === "dublin");
    await writeFile(states, JSON.stringify(file));
    const child = spawn(process.execPath, [
      join(ROOT, "bin/velodata.js"),
      ...["serve", "--source", source, "--keys", keys, "--port", "0"],
    ]);
    // A server started all the same is stopped: the test fails without one left listening.
    child.stdout.on("data", (chunk) => {
      if (String(chunk).includes("serving ")) child.kill("SIGTERM");
    });
    const refused = await ended(child);
    expect(refused.code).toBe(1);
    // Named in the static source's order, as the minute refresh names the stations it misses.
    expect(refused.stderr).toContain(
      "velodata: the source data has 1 error; the server was not started\n" +
        `  error: ${states}: leaves out 299 of the 413 stations the static source lists (72.4%), more than --max-missing 10% allows: fix the feed, or raise --max-missing if stations really left; ` +
        "299 stations not in it (lyon #2010, lyon #5015, lyon #123, toulouse #55, toulouse #195, toulouse #29, toulouse #280, toulouse #156, toulouse #242, toulouse #224 and 289 more)\n",
    );
    expect(refused.stdout).not.toContain("serving ");
  });

  it("starts with states of stations the static source does not list, each a warning, as refresh says them", async () => {
    const source = await fixtureCopy();
    const keys = join(source, "keys.json");
    const states = join(source, "states.json");
    const file = JSON.parse(await readFile(states, "utf8")) as {
      states: { contract: string; number: number }[];
    };
    const good = file.states.length;
    // More than --max-missing 10% of the 413 stations: 50 the source does not list (yet), 10 of a
    // contract it does not publish.
    const [first] = file.states;
    for (let at = 0; at < 60; at++)
      file.states.push({ ...first, contract: at < 50 ? "dublin" : "paris", number: 9000 + at });
    await writeFile(states, JSON.stringify(file));
    const { child, url, output } = await startServe([
      "--source",
      source,
      "--keys",
      keys,
      "--port",
      "0",
    ]);
    const exited = new Promise((resolve) => child.on("exit", resolve));
    try {
      expect(output()).toContain(
        `warning: ${states}[${good}] (dublin #9000) number: no station 9000 in contract "dublin": this state is left out until the static source lists the station`,
      );
      expect(output()).toContain(
        `warning: ${states}[${good + 50}] (paris #9050) contract: no station has contract "paris"`,
      );
      // Every station of the network has its state.
      const status = (await (await fetch(`${url}/status`)).json()) as {
        feed: { missingStations: number };
      };
      expect(status.feed.missingStations).toBe(0);
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
  });
});
