import { describe, expect, it } from "vitest";
import { bufferedLog } from "../../src/serve/log-sink.js";

describe("bufferedLog", () => {
  it("writes the lines of one turn of the event loop together, in order, at the end of the turn", async () => {
    const writes: string[] = [];
    const log = bufferedLog((text) => writes.push(text));
    log("GET /a 200");
    log("GET /b 404");
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(["GET /a 200\nGET /b 404"]);
  });

  it("writes what is pending on flush, and nothing twice", async () => {
    const writes: string[] = [];
    const log = bufferedLog((text) => writes.push(text));
    log("GET /a 200");
    log.flush();
    expect(writes).toEqual(["GET /a 200"]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(["GET /a 200"]);
  });
});
