// `velodata serve`'s log as an operator reads it: priorities for systemd's journal, and the
// request lines that --no-request-log leaves out.
import { type ChildProcess, spawn } from "node:child_process";
import { copyFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEMO_KEY } from "../../src/commands/serve.js";
import { BIN, FIXTURES, fixtureCopy, tempDir } from "../helpers.js";

// As systemd starts a service: JOURNAL_STREAM names the stream its stdout (fd 1) or stderr (fd 2) is.
const UNDER_JOURNAL = (fd: 1 | 2) =>
  `JOURNAL_STREAM=$(stat -L -c %d:%i /proc/$$/fd/${fd}) exec "$0" "$@"`;

interface Started {
  child: ChildProcess;
  output: () => string;
  /** Resolves once the output holds `text` (on the output's events). */
  printed: (text: string) => Promise<void>;
}

function start(args: string[], journal: boolean): Started {
  const child = journal
    ? spawn("/bin/sh", ["-c", UNDER_JOURNAL(1), process.execPath, BIN, ...args])
    : spawn(process.execPath, [BIN, ...args]);
  let output = "";
  const waiting = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    output += chunk;
    for (const check of waiting) check();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const printed = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!output.includes(text)) return;
        waiting.delete(check);
        resolve();
      };
      child.once("exit", () => reject(new Error(`exited before printing ${text}: ${output}`)));
      waiting.add(check);
      check();
    });
  return { child, output: () => output, printed };
}

async function stopped(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

async function serving(extra: string[], journal: boolean) {
  const dir = await tempDir();
  const state = join(dir, "states.json");
  await copyFile(join(FIXTURES, "states.json"), state);
  const args = ["serve", "--source", FIXTURES, "--keys", join(dir, "keys.json"), "--port", "0"];
  const started = start([...args, "--state", state, "--refresh", "3600", ...extra], journal);
  await started.printed("serving ");
  const url = /serving .* at (http:\/\/\S+),/.exec(started.output())?.[1] as string;
  return { ...started, url, state };
}

const lines = (output: string) => output.split("\n").filter((line) => line !== "");

describe("velodata serve's log", () => {
  it("gives each line its priority when its stdout is systemd's journal", async () => {
    const { child, url, state, output, printed } = await serving(["--demo-key"], true);
    try {
      await (await fetch(`${url}/vls/v3/contracts?apiKey=${DEMO_KEY}`)).text();
      await printed("GET /vls/v3/contracts");
      await writeFile(state, "{");
      child.kill("SIGHUP");
      await printed("refresh failed");
      const byStart = (text: string) => lines(output()).find((line) => line.includes(text));
      expect(byStart("serving ")).toMatch(/^<6>\d{4}-/);
      // The client named by its key's id, never by the key.
      expect(byStart("GET /vls/v3/contracts")).toMatch(/^<6>\d{4}-.* 200 [\d.]+ms key demo$/);
      expect(byStart("demo key enabled")).toMatch(/^<4>\d{4}-/);
      // The fixtures' states are old: a stalled feed, said as a warning.
      expect(byStart(" feed: ")).toMatch(/^<4>\d{4}-\S+ feed: 413 of 413 stations /);
      expect(byStart("refresh failed")).toMatch(/^<3>\d{4}-.* refresh failed: .*states\.json/);
      // The signal's line is the server's own, in order before the refresh it starts.
      const all = lines(output());
      const signal = all.findIndex((line) => /^<6>\d{4}-\S+ SIGHUP: refreshing now/.test(line));
      expect(signal).toBeGreaterThan(-1);
      expect(signal).toBeLessThan(all.findIndex((line) => line.includes("refresh failed")));
    } finally {
      await stopped(child);
    }
  });

  it("leaves the lines as they are anywhere else", async () => {
    const { child, output } = await serving(["--demo-key"], false);
    try {
      expect(lines(output()).filter((line) => line.startsWith("<"))).toEqual([]);
      expect(output()).toMatch(/^\d{4}-.* demo key enabled/m);
    } finally {
      await stopped(child);
    }
  });

  it("writes no line per request with --no-request-log, and still logs the refreshes", async () => {
    const { child, url, output, printed } = await serving(
      ["--demo-key", "--no-request-log"],
      false,
    );
    try {
      const answer = await fetch(`${url}/vls/v3/contracts?apiKey=${DEMO_KEY}`);
      expect(answer.status).toBe(200);
      await answer.text();
      // The refresh's line comes after where the request's would be: both go through one buffer.
      child.kill("SIGHUP");
      await printed("refreshed from");
      expect(output()).not.toContain("GET /vls/v3/contracts");
    } finally {
      await stopped(child);
    }
  });

  it("marks a warning as one when its stderr is the journal", async () => {
    const source = await fixtureCopy();
    await rm(join(source, "parkings.json"));
    const args = ["validate", "--source", source];
    const run = (journal: boolean) =>
      new Promise<string>((resolve) => {
        const child = journal
          ? spawn("/bin/sh", ["-c", UNDER_JOURNAL(2), process.execPath, BIN, ...args])
          : spawn(process.execPath, [BIN, ...args]);
        let stderr = "";
        child.stderr.on("data", (chunk) => (stderr += chunk));
        child.once("close", () => resolve(stderr));
      });
    const plain = await run(false);
    expect(plain).toMatch(/^warning: .*parkings\.json: not found/);
    expect(lines(await run(true))).toEqual(lines(plain).map((line) => `<4>${line}`));
  });

  it("goes on serving when its log's reader goes away, saying so once on stderr", async () => {
    const { child, url, printed } = await serving(["--demo-key"], false);
    try {
      child.stdout?.destroy(); // the reader of its stdout (a `| logger`) is gone
      const key = `apiKey=${DEMO_KEY}`;
      // Each request writes a line to the closed pipe; the first finds it gone.
      for (let request = 0; request < 3; request++)
        expect((await fetch(`${url}/vls/v3/contracts?${key}`)).status).toBe(200);
      await printed("the log's reader went away");
      expect((await fetch(`${url}/vls/v3/contracts?${key}`)).status).toBe(200);
      expect(child.exitCode).toBeNull();
    } finally {
      await stopped(child);
    }
  });

  it("marks a fatal error as one when its stderr is the journal", async () => {
    const dir = await tempDir();
    // Port 0: with the default (8080) taken on the machine, serve may say that first.
    const keys = join(dir, "keys.json");
    const args = ["serve", "--source", join(dir, "nowhere"), "--keys", keys, "--port", "0"];
    const { child, output } = start(args, false);
    const plain = await new Promise<string>((resolve) =>
      child.once("close", () => resolve(output())),
    );
    const underJournal = spawn("/bin/sh", ["-c", UNDER_JOURNAL(2), process.execPath, BIN, ...args]);
    let stderr = "";
    underJournal.stderr.on("data", (chunk) => (stderr += chunk));
    await new Promise((resolve) => underJournal.once("close", resolve));
    expect(plain).toMatch(/^velodata: .*nowhere/);
    expect(lines(stderr)).toEqual(lines(plain).map((line) => `<3>${line}`));
  });

  it("marks commander's own errors (a mistyped option) as errors when its stderr is the journal", async () => {
    const args = ["serve", "--source", FIXTURES, "--port", "abc"];
    const underJournal = spawn("/bin/sh", ["-c", UNDER_JOURNAL(2), process.execPath, BIN, ...args]);
    let stderr = "";
    underJournal.stderr.on("data", (chunk) => (stderr += chunk));
    await new Promise((resolve) => underJournal.once("close", resolve));
    expect(lines(stderr)[0]).toMatch(
      /^<3>error: option '-p, --port <n>' argument 'abc' is invalid/,
    );
    expect(lines(stderr).every((line) => line.startsWith("<3>"))).toBe(true);
  });
});
