import { closeSync, openSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { askedTargets } from "../../src/serve/asked.js";
import {
  bufferedLog,
  fdWriter,
  LOG_DELAY_MS,
  type LogWriter,
  linesOf,
  timestamp,
} from "../../src/serve/log-sink.js";
import { requestLineText } from "../../src/serve/request-line.js";

afterEach(() => {
  vi.useRealTimers();
});

/** A writer whose writes finish only when the test says so (`finish.shift()?.()`), in order. */
function slowWriter() {
  const writes: string[] = [];
  const finish: Array<() => void> = [];
  const write: LogWriter = (chunks) =>
    new Promise<void>((resolve) => {
      writes.push(linesOf(chunks));
      finish.push(resolve);
    });
  return { writes, finish, write };
}

describe("bufferedLog", () => {
  it("starts each line with its journal priority when it writes to the journal, not otherwise", () => {
    const written = (journal: boolean) => {
      const chunks: string[] = [];
      const log = bufferedLog((lines) => void chunks.push(linesOf(lines)), { journal });
      log("serving 3 stations");
      log("refresh failed: states.json: not JSON", "error");
      log("keys: no keys file yet", "warning");
      log.request("GET", askedTargets()("/vls/v3/contracts"), 200, 1.5, true, null);
      void log.flush();
      return (chunks[0] ?? "").split("\n");
    };
    const [info, error, warning, request] = written(true);
    expect([info, error, warning]).toEqual([
      "<6>serving 3 stations",
      "<3>refresh failed: states.json: not JSON",
      "<4>keys: no keys file yet",
    ]);
    expect(request).toMatch(/^<6>\d{4}-\d\d-\d\dT[^ ]+Z GET \/vls\/v3\/contracts 200 1\.5ms$/);
    const plain = written(false);
    expect(plain.slice(0, 3)).toEqual([
      "serving 3 stations",
      "refresh failed: states.json: not JSON",
      "keys: no keys file yet",
    ]);
    expect(plain[3]).toMatch(/^\d{4}-\d\d-\d\dT[^ ]+Z GET \/vls\/v3\/contracts 200 1\.5ms$/);
  });

  it("writes the lines gathered within its delay together, in order, once the delay is over", () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    const log = bufferedLog((chunks) => {
      writes.push(linesOf(chunks));
    });
    log("GET /a 200");
    vi.advanceTimersByTime(LOG_DELAY_MS - 1);
    log("GET /b 404");
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(writes).toEqual(["GET /a 200\nGET /b 404"]);
    log("GET /c 200");
    vi.advanceTimersByTime(LOG_DELAY_MS);
    expect(writes).toEqual(["GET /a 200\nGET /b 404", "GET /c 200"]);
  });

  it("writes at once when many lines are pending, without waiting for the delay", () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    const log = bufferedLog((chunks) => {
      writes.push(linesOf(chunks));
    });
    for (let n = 0; n < 1024; n++) log(`GET /${n} 200`);
    expect(writes).toHaveLength(1);
    expect(writes[0]?.split("\n")).toHaveLength(1024);
    vi.advanceTimersByTime(LOG_DELAY_MS);
    expect(writes).toHaveLength(1);
  });

  it("writes what is pending on flush, and nothing twice", () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    const log = bufferedLog((chunks) => {
      writes.push(linesOf(chunks));
    });
    log("GET /a 200");
    log.flush();
    expect(writes).toEqual(["GET /a 200"]);
    vi.advanceTimersByTime(LOG_DELAY_MS);
    expect(writes).toEqual(["GET /a 200"]);
  });

  it("with a writer that finishes later, asks one write at a time and writes what gathered meanwhile after it, in order", async () => {
    vi.useFakeTimers();
    const { writes, finish, write } = slowWriter();
    const log = bufferedLog(write);
    log("a");
    const first = log.flush();
    log("b");
    log("c");
    vi.advanceTimersByTime(LOG_DELAY_MS * 2);
    expect(writes).toEqual(["a"]); // "b" and "c" wait for the first write to finish
    finish.shift()?.();
    await first;
    vi.advanceTimersByTime(LOG_DELAY_MS);
    expect(writes).toEqual(["a", "b\nc"]);
    let done = false;
    const all = log.flush().then(() => (done = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(false); // flush waits for the write in progress
    finish.shift()?.();
    await all;
    expect(done).toBe(true);
    expect(writes).toHaveLength(2);
  });

  it("drops lines past its bound while a write does not finish, and says how many once it can", async () => {
    vi.useFakeTimers();
    const { writes, finish, write } = slowWriter();
    const log = bufferedLog(write, { maxWaitingBytes: 10 });
    log("first");
    void log.flush();
    log("12345"); // 6 characters waiting
    log("67890"); // 12: past the bound of 10 from now on
    log("lost 1");
    log("lost 2");
    finish.shift()?.();
    const rest = log.flush();
    await vi.advanceTimersByTimeAsync(0);
    finish.shift()?.();
    await rest;
    expect(writes).toEqual([
      "first",
      "12345\n67890\nlog: 2 lines dropped: the output was not read fast enough",
    ]);
  });
  it("writes a request's line as bytes, stamped, the same as its text", () => {
    const asked = askedTargets();
    const chunks: string[] = [];
    const log = bufferedLog((written) => {
      chunks.push(linesOf(written));
    });
    const lines: [
      string | undefined,
      string | undefined,
      number,
      number,
      boolean,
      string | null,
    ][] = [
      [
        "GET",
        "/vls/v3/stations/42?contract=lyon&apiKey=0123456789abcdef0123456789abcdef01234567",
        200,
        1.26,
        true,
        "0de43ae5",
      ],
      ["HEAD", "/vls/v3/contracts", 304, 0, true, null],
      ["OPTIONS", "/vls/v1/stations", 204, 12345.65, true, null],
      ["GET", "/vls/v3/stations?contract=toulouse", 200, 987.04, false, "demo"],
      ["PROPFIND", "/caf%C3%A9/x\u0001y", 405, Number.NaN, true, null],
      [undefined, undefined, 400, -3, true, null],
    ];
    // The same arguments for the sink and for the text it must match.
    const argsOf = ([method, target, status, ms, delivered, keyId]: (typeof lines)[number]) =>
      [
        method,
        target === undefined ? undefined : asked(target),
        status,
        ms,
        delivered,
        keyId,
      ] as const;
    const before = timestamp();
    for (const line of lines) log.request(...argsOf(line));
    void log.flush();
    const after = timestamp();
    const written = (chunks[0] ?? "").split("\n");
    expect(written).toHaveLength(lines.length);
    written.forEach((line, index) => {
      const stamp = line.slice(0, before.length);
      expect(stamp >= before && stamp <= after, line).toBe(true);
      const text = requestLineText(...argsOf(lines[index] as (typeof lines)[number]));
      expect(line).toBe(`${stamp} ${text}`);
    });
    expect(written[0]).toMatch(
      / GET \/vls\/v3\/stations\/42\?contract=lyon&apiKey=<redacted> 200 1\.3ms key 0de43ae5$/,
    );
    expect(written[2]).toMatch(/ OPTIONS \/vls\/v1\/stations 204 12345\.7ms$/);
    expect(written[3]).toMatch(
      / 200 not delivered: the connection closed after 987\.0ms key demo$/,
    );
    expect(written[5]).toMatch(/Z {2}\(target not read\) 400 -3\.0ms$/);
  });

  it("fills a buffer again only once the write that had it has finished", async () => {
    // What each write was given, as it was when given and as it is when the write finishes.
    const given: string[] = [];
    const atFinish: string[] = [];
    const finish: Array<() => void> = [];
    const log = bufferedLog(
      (chunks) =>
        new Promise<void>((resolve) => {
          given.push(linesOf(chunks));
          finish.push(() => {
            atFinish.push(linesOf(chunks));
            resolve();
          });
        }),
    );
    const line = (n: number) => `line ${n} ${"x".repeat(200)}`;
    let n = 0;
    const batch = () => {
      for (let count = 0; count < 2000; count++) log(line(n++));
    };
    batch(); // past MAX_PENDING: written at once
    batch(); // waits for it, in other buffers
    finish.shift()?.();
    await vi.waitFor(() => expect(given).toHaveLength(2));
    batch(); // may take the first write's buffers, now free, while the second is written
    finish.shift()?.();
    await vi.waitFor(() => expect(given).toHaveLength(3));
    finish.shift()?.();
    await log.flush();
    expect(atFinish).toEqual(given);
    expect(given.join("\n").split("\n")).toEqual(Array.from({ length: n }, (_, k) => line(k)));
  });
});

describe("fdWriter", () => {
  it("writes the text and a newline to the descriptor, and reports a failed write", async () => {
    const dir = await mkdtemp(join(tmpdir(), "velodata-log-"));
    try {
      const path = join(dir, "log.txt");
      const fd = openSync(path, "w");
      const failures: string[] = [];
      const write = fdWriter(fd, (error) => failures.push(error.code ?? ""));
      await write([Buffer.from("line 1\n"), Buffer.from("line 2\n")]);
      await write([Buffer.from(`${"é ".repeat(100_000)}\n`)]);
      closeSync(fd);
      expect(readFileSync(path, "utf8")).toBe(`line 1\nline 2\n${"é ".repeat(100_000)}\n`);
      expect(failures).toEqual([]);
      await fdWriter(fd, (error) => failures.push(error.code ?? ""))([Buffer.from("after close")]);
      expect(failures).toEqual(["EBADF"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
