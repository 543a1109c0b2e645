import { closeSync, openSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { bufferedLog, fdWriter, LOG_DELAY_MS } from "../../src/serve/log-sink.js";

afterEach(() => {
  vi.useRealTimers();
});

/** A writer whose writes finish only when the test says so (`finish.shift()?.()`), in order. */
function slowWriter() {
  const writes: string[] = [];
  const finish: Array<() => void> = [];
  const write = (text: string) =>
    new Promise<void>((resolve) => {
      writes.push(text);
      finish.push(resolve);
    });
  return { writes, finish, write };
}

describe("bufferedLog", () => {
  it("writes the lines gathered within its delay together, in order, once the delay is over", () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    const log = bufferedLog((text) => {
      writes.push(text);
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
    const log = bufferedLog((text) => {
      writes.push(text);
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
    const log = bufferedLog((text) => {
      writes.push(text);
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
    const log = bufferedLog(write, 10);
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
});

describe("fdWriter", () => {
  it("writes the text and a newline to the descriptor, and reports a failed write", async () => {
    const dir = await mkdtemp(join(tmpdir(), "velodata-log-"));
    try {
      const path = join(dir, "log.txt");
      const fd = openSync(path, "w");
      const failures: string[] = [];
      const write = fdWriter(fd, (error) => failures.push(error.code ?? ""));
      await write("line 1\nline 2");
      await write("é ".repeat(100_000));
      closeSync(fd);
      expect(readFileSync(path, "utf8")).toBe(`line 1\nline 2\n${"é ".repeat(100_000)}\n`);
      expect(failures).toEqual([]);
      await fdWriter(fd, (error) => failures.push(error.code ?? ""))("after close");
      expect(failures).toEqual(["EBADF"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
