import { afterEach, describe, expect, it, vi } from "vitest";
import { bufferedLog, LOG_DELAY_MS } from "../../src/serve/log-sink.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("bufferedLog", () => {
  it("writes the lines gathered within its delay together, in order, once the delay is over", () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    const log = bufferedLog((text) => writes.push(text));
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
    const log = bufferedLog((text) => writes.push(text));
    for (let n = 0; n < 1024; n++) log(`GET /${n} 200`);
    expect(writes).toHaveLength(1);
    expect(writes[0]?.split("\n")).toHaveLength(1024);
    vi.advanceTimersByTime(LOG_DELAY_MS);
    expect(writes).toHaveLength(1);
  });

  it("writes what is pending on flush, and nothing twice", () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    const log = bufferedLog((text) => writes.push(text));
    log("GET /a 200");
    log.flush();
    expect(writes).toEqual(["GET /a 200"]);
    vi.advanceTimersByTime(LOG_DELAY_MS);
    expect(writes).toEqual(["GET /a 200"]);
  });
});
