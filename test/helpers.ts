// Shared test helpers: temporary folders, a copy of the fixtures, and running the real CLI.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync, watch } from "node:fs";
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

export const ROOT = resolve(import.meta.dirname, "..");
export const FIXTURES = join(ROOT, "fixtures");
// Real responses of the original service (copied from shared/reference/jcdecaux; see its SOURCES.txt).
export const REFERENCE = join(ROOT, "test/reference");

/**
 * The warnings the fixtures give, true of the real data they come from: Toulouse's capture holds
 * a test station ("BORNE TEST BDX") placed 158 km away, near Bergerac; and the captures' states
 * are old, so that a build or a validation of them says the feed looks stalled. And the note that
 * they have no portal.json, which no capture holds (a server's log line stamped).
 */
const FIXTURE_WARNINGS = [
  /^(?:warning: )?\S*stations\.csv:261 \(toulouse #1033\) latitude: 44\.869297, 0\.547885 is 158 km from the middle of its contract's others .*\n?/m,
  /^warning: \S+: 413 of 413 stations not reported for 15 minutes or more \(100%, more than --max-stale 25%\): is the feed stalled\? .*\n?/m,
  /^(?:\S+ )?portal: no \S*portal\.json: the portal page is titled "velodata" .*\n?/m,
];

/** Lines (or a command's stderr) without the fixtures' own warnings, which each test of them gets. */
export function besidesFixtureWarning(stderr: string): string;
export function besidesFixtureWarning(lines: string[]): string[];
export function besidesFixtureWarning(text: string | string[]): string | string[] {
  return typeof text === "string"
    ? FIXTURE_WARNINGS.reduce((rest, warning) => rest.replace(warning, ""), text)
    : text.filter((line) => !FIXTURE_WARNINGS.some((warning) => warning.test(line)));
}
/** The warning lines of a command's stderr, besides the fixtures' own. */
export const warningLines = (stderr: string): string[] =>
  besidesFixtureWarning(stderr)
    .split("\n")
    .filter((line) => line.startsWith("warning: "));

export const BIN = join(ROOT, "bin/velodata.js");

// The folders tempDir made for this test file: removed once its tests are done (see
// remove-temp-dirs.ts), or every run would leave trees of up to ~100 MB in the system's tmp.
const made: string[] = [];

export async function tempDir(prefix = "velodata-test-"): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A folder as tempDir's, on a memory file system (/dev/shm). */
export async function memoryDir(prefix = "velodata-test-"): Promise<string> {
  const dir = await mkdtemp(join("/dev/shm", prefix));
  made.push(dir);
  return dir;
}

/** Removes every folder tempDir made so far. */
export async function removeTempDirs(): Promise<void> {
  const dirs = made.splice(0);
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 3 })));
}

/** A writable copy of the fixtures, to break on purpose. */
export async function fixtureCopy(): Promise<string> {
  const dir = await tempDir();
  await cp(FIXTURES, join(dir, "source"), { recursive: true });
  return join(dir, "source");
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** What a process started with piped output said, and its exit code, once it has closed. */
export function ended(child: ChildProcessWithoutNullStreams): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code, stdout, stderr }));
  });
}

/** Runs a shell pipeline (to see what `velodata … | head` does). */
export const runShell = (command: string): Promise<CliResult> =>
  ended(spawn("/bin/sh", ["-c", command], { env: { ...process.env, FORCE_COLOR: "0" } }));

/** The fixtures' states text with Dublin #42 reporting at `time` (published form) instead. */
export const dublin42ReportedAt = (states: string, time: string): string =>
  states.replace('"lastUpdate": "2025-02-08T16:44:06Z"', `"lastUpdate": "${time}"`);

/**
 * How a list's brotli joined of its contracts' pieces starts (the thread pool's or the compression
 * worker's): the stream's header and its padding, then `[` as a meta-block of its own.
 */
export const JOINED_BROTLI_START = [0x6b, 0x00, 0x00, 0x00, 0x08, 0x5b];

/**
 * A synthetic network in `dir`/source, of three contracts of ~400 stations (their lists big
 * enough to be made into pieces), and the text of its next minute's states, in which none of
 * Lyon's stations changed.
 */
export async function networkWithLyonKept(
  dir: string,
): Promise<{ source: string; nextMinute: string }> {
  const source = join(dir, "source");
  const synth = ["synth", "--stations", "1200", "--contracts", "3", "--minutes", "1"];
  const written = await runCli([...synth, "--out", source]);
  if (written.code !== 0) throw new Error(`synth failed: ${written.stderr}`);
  const [first, next] = await Promise.all(
    ["states.json", "states-1.json"].map((name) => readFile(join(source, name), "utf8")),
  );
  return { source, nextMinute: statesKeptFor("lyon", first as string, next as string) };
}

/**
 * A synthetic network's states `next` (one record a line, as `velodata synth` writes them), but
 * those of `contract`, which keep their text in `before`: a minute where none of its stations changed.
 */
function statesKeptFor(contract: string, before: string, next: string): string {
  const mark = `{"contract":"${contract}",`;
  const kept = before.split("\n").filter((line) => line.startsWith(mark));
  let at = 0;
  return next
    .split("\n")
    .map((line) => {
      if (!line.startsWith(mark)) return line;
      const same = kept[at++] as string;
      // Each record keeps the comma (or none) of its place in `next`.
      return line.endsWith(",") === same.endsWith(",") ? same : same.replace(/,$/, "");
    })
    .join("\n");
}

/** `velodata refresh`'s arguments: `out` from the source folder's own states.json, then `extra`. */
export const refreshArgs = (source: string, out: string, ...extra: string[]): string[] => [
  "refresh",
  "--source",
  source,
  "--state",
  join(source, "states.json"),
  "--out",
  out,
  ...extra,
];

/**
 * Runs `velodata ...args` as a user would (the compiled CLI, in its own process); `bin`: another
 * installation's executable.
 */
export const runCli = (
  args: readonly string[],
  cwd = ROOT,
  env: Record<string, string> = {},
  bin = BIN,
): Promise<CliResult> =>
  ended(
    spawn(process.execPath, [bin, ...args], {
      cwd,
      env: { ...process.env, FORCE_COLOR: "0", ...env },
    }),
  );

/** How a process started by `startedProcess` ended, and what it said. */
export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * A process started with its output gathered (no colours): `ended` settles once it closed;
 * `stdout()` is what it said so far, for a test that waits for a line before it stops it.
 */
export function startedProcess(command: string, args: readonly string[]) {
  const child = spawn(command, args, { env: { ...process.env, FORCE_COLOR: "0" } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const ended = new Promise<Ended>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, ended, stdout: () => stdout };
}

/** What a client sees of an answer (status, body and the headers it reads), to compare two whole. */
export async function answerShape(response: Response) {
  const { headers } = response;
  return {
    status: response.status,
    body: await response.text(),
    type: headers.get("content-type"),
    cache: headers.get("cache-control"),
    cors: headers.get("access-control-allow-origin"),
    exposed: headers.get("access-control-expose-headers"),
  };
}

/** A full garbage collection, once the current job (which keeps WeakRef targets) is over. */
export async function collectGarbage(): Promise<void> {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  await new Promise((resolve) => setImmediate(resolve));
  gc();
}

/** Resolves once `path` no longer exists, told by its folder's changes. */
export function whenGone(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = watch(dirname(path), () => {
      if (existsSync(path)) return;
      watcher.close();
      resolve();
    });
    watcher.once("error", reject);
    if (!existsSync(path)) {
      watcher.close();
      resolve();
    }
  });
}
