// Range requests through velodata serve: a download cut short resumed where it stopped, as nginx
// serves the same files (see byte-ranges.ts).
import { get, type IncomingHttpHeaders } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bytesBetween, rangeAsked } from "../../src/serve/byte-ranges.js";
import { startTestServer, type TestServer } from "./serve-helpers.js";

const ZIP = "/download/velodata-static.zip";

let server: TestServer;
let whole: Buffer;
let etag: string;
beforeAll(async () => {
  server = await startTestServer();
  const answer = await fetch(`${server.base}${ZIP}`);
  whole = Buffer.from(await answer.arrayBuffer());
  etag = answer.headers.get("etag") as string;
});
afterAll(() => server.handle.stop());

const ranged = (range: string, headers: Record<string, string> = {}, path = ZIP) =>
  fetch(`${server.base}${path}`, { headers: { Range: range, ...headers } });

function rawBytes(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const asked = get(new URL(path, server.base), { headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on("data", (chunk: Buffer) => chunks.push(chunk));
      answer.on("end", () =>
        resolve({
          status: answer.statusCode ?? 0,
          headers: answer.headers,
          body: Buffer.concat(chunks),
        }),
      );
    });
    asked.on("error", reject);
  });
}

const bytesOf = async (answer: Response) => Buffer.from(await answer.arrayBuffer());

describe("serve: Range", () => {
  it("says that a download can be resumed", async () => {
    const answer = await fetch(`${server.base}${ZIP}`);
    expect(answer.headers.get("accept-ranges")).toBe("bytes");
    expect(whole.length).toBeGreaterThan(1000);
  });

  it("sends the bytes one range asks for, from a start, an end, or the last n", async () => {
    const size = whole.length;
    for (const [range, start, end] of [
      ["bytes=100-199", 100, 199],
      [`bytes=${size - 10}-`, size - 10, size - 1],
      ["bytes=-50", size - 50, size - 1],
      // Past the end: up to the end.
      [`bytes=${size - 5}-${size + 100}`, size - 5, size - 1],
      // Two that join: one.
      ["bytes=0-9,10-19", 0, 19],
    ] as const) {
      const answer = await ranged(range);
      expect(answer.status, range).toBe(206);
      expect(answer.headers.get("content-range"), range).toBe(`bytes ${start}-${end}/${size}`);
      expect(answer.headers.get("content-length"), range).toBe(String(end - start + 1));
      expect(answer.headers.get("etag"), range).toBe(etag);
      expect(answer.headers.get("content-type"), range).toBe("application/zip");
      expect((await bytesOf(answer)).equals(whole.subarray(start, end + 1)), range).toBe(true);
    }
  });

  it("refuses a range past the end with 416 and the size", async () => {
    const answer = await ranged(`bytes=${whole.length}-`);
    expect(answer.status).toBe(416);
    expect(answer.headers.get("content-range")).toBe(`bytes */${whole.length}`);
    expect(await answer.json()).toEqual({ error: "Range Not Satisfiable" });
  });

  it("sends the whole answer for what it does not serve apart", async () => {
    for (const [range, headers] of [
      ["bytes=0-9,100-109", {}], // two ranges apart
      ["bytes=abc", {}], // not a range
      ["items=0-9", {}], // another unit
      ["bytes=0-9", { "If-Range": '"another"' }], // the copy resumed is no longer this one
      ["bytes=0-9", { "If-Range": "Sat, 01 Jan 2000 00:00:00 GMT" }], // no Last-Modified here
    ] as const) {
      const answer = await ranged(range, headers);
      expect(answer.status, range).toBe(200);
      expect((await bytesOf(answer)).equals(whole), range).toBe(true);
    }
  });

  it("resumes when If-Range names the answer's ETag", async () => {
    const answer = await ranged("bytes=10-", { "If-Range": etag });
    expect(answer.status).toBe(206);
    expect((await bytesOf(answer)).equals(whole.subarray(10))).toBe(true);
  });

  it("serves a range of a compressed variant, under its own tag", async () => {
    // Not fetch: it would take the gzip stream's first bytes for a whole one.
    const path = `/vls/v3/stations?contract=dublin&apiKey=${server.key}`;
    const gzip = { "Accept-Encoding": "gzip" };
    const full = await rawBytes(path, gzip);
    expect(full.headers["content-encoding"]).toBe("gzip");
    const part = await rawBytes(path, { ...gzip, Range: "bytes=0-1" });
    expect(part.status).toBe(206);
    expect(part.headers["content-encoding"]).toBe("gzip");
    expect(part.headers.etag).toBe(full.headers.etag);
    expect(part.headers["content-range"]).toBe(`bytes 0-1/${full.body.length}`);
    // The gzip stream's first two bytes, its magic number.
    expect([...part.body]).toEqual([0x1f, 0x8b]);
  });

  it("cuts a JSON answer too, as its Accept-Ranges says", async () => {
    // Through the checked fetch: the document's 200 for this path says the 206 its list leaves out.
    const answer = await ranged("bytes=0-0", {}, `/vls/v3/contracts?apiKey=${server.key}`);
    expect(answer.status).toBe(206);
    expect(answer.headers.get("content-type")).toBe("application/json");
    expect(await answer.text()).toBe("[");
  });

  it("answers a HEAD with a Range as a HEAD", async () => {
    const answer = await fetch(`${server.base}${ZIP}`, {
      method: "HEAD",
      headers: { Range: "bytes=0-9" },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-length")).toBe(String(whole.length));
  });
});

describe("rangeAsked and bytesBetween", () => {
  it("takes a range's bytes across the chunks a body is kept in", () => {
    const body = [Buffer.from("abc"), Buffer.from("defg"), Buffer.from("hi")];
    const joined = Buffer.concat(body).toString();
    for (let start = 0; start < joined.length; start++)
      for (let end = start; end < joined.length; end++)
        expect(Buffer.concat(bytesBetween(body, start, end)).toString(), `${start}-${end}`).toBe(
          joined.slice(start, end + 1),
        );
  });

  it("never matches a weak tag in If-Range", () => {
    expect(rangeAsked("bytes=0-1", 'W/"a"', '"a"', 10)).toEqual({ kind: "whole" });
    expect(rangeAsked("bytes=0-1", '"a"', '"a"', 10)).toEqual({ kind: "part", start: 0, end: 1 });
  });

  it("reads the unit's name in any case, as RFC 9110 has it (and nginx does); another unit gets the whole", () => {
    for (const unit of ["BYTES", "Bytes", "bytes"])
      expect(rangeAsked(`${unit}=2-5`, undefined, '"a"', 10), unit).toEqual({
        kind: "part",
        start: 2,
        end: 5,
      });
    expect(rangeAsked("items=2-5", undefined, '"a"', 10)).toEqual({ kind: "whole" });
  });
});
