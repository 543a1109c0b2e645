import { once } from "node:events";
import { createServer, request as httpRequest } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { releaseFile } from "../../src/publish/release.js";
import { sendChunks, sendFile } from "../../src/serve/respond.js";

// Chunks of uneven sizes, each byte saying where it belongs: a batch refilled before the socket
// took it, a chunk lost or two swapped all show in the bytes received.
function numberedChunks(count: number): Buffer[] {
  let at = 0;
  return Array.from({ length: count }, (_, index) => {
    const size = index % 97 === 0 ? 300_000 : 1 + ((index * 7919) % 5000);
    const chunk = Buffer.alloc(size);
    for (let i = 0; i < size; i++) chunk[i] = (at + i) % 251;
    at += size;
    return chunk;
  });
}

let close: (() => void) | undefined;
afterEach(() => close?.());

/** A real server answering with `answer`, and a client that reads a little at a time. */
async function slowlyRead(
  answer: Parameters<typeof createServer>[1] & {},
): Promise<{ status: number; body: Buffer }> {
  const server = createServer(answer).listen(0, "127.0.0.1");
  await once(server, "listening");
  close = () => server.close();
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const asked = httpRequest({ host: "127.0.0.1", port, path: "/" }, (response) => {
      const received: Buffer[] = [];
      response.on("data", (data: Buffer) => {
        received.push(data);
        // Pausing makes the server wait on back-pressure again and again.
        response.pause();
        setImmediate(() => response.resume());
      });
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(received) }),
      );
    });
    asked.on("error", reject);
    asked.end();
  });
}

describe("big bodies", () => {
  it("writes a body of many chunks in batches that arrive whole and in order", async () => {
    const chunks = numberedChunks(3000);
    const whole = Buffer.concat(chunks);
    const { body } = await slowlyRead((_, response) => {
      response.writeHead(200, { "Content-Length": String(whole.length) });
      void sendChunks(response, chunks);
    });
    expect(body.length).toBe(whole.length);
    expect(body.equals(whole)).toBe(true);
  });

  it("sends a release file of many chunks whole, as one body", async () => {
    const chunks = numberedChunks(800);
    const file = releaseFile(chunks, "application/json", "static");
    const { status, body } = await slowlyRead((request, response) => {
      void sendFile(request, response, file, "public, max-age=3600");
    });
    expect(status).toBe(200);
    expect(body.equals(Buffer.concat(chunks))).toBe(true);
  });
});

/** The status line of the answer to raw request bytes (header names spelled and repeated at will). */
async function statusOf(file: ReturnType<typeof releaseFile>, head: string): Promise<string> {
  const server = createServer((request, response) => {
    void sendFile(request, response, file, "no-cache");
  }).listen(0, "127.0.0.1");
  await once(server, "listening");
  close = () => server.close();
  const { port } = server.address() as AddressInfo;
  const socket = connect(port, "127.0.0.1");
  socket.end(`GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${head}\r\n`);
  let answer = "";
  for await (const chunk of socket) answer += chunk;
  return answer.slice(0, answer.indexOf("\r\n"));
}

describe("request headers", () => {
  it("reads a header whatever the case of its name, and repeated ones as one list", async () => {
    const file = releaseFile([Buffer.from('{"number":42}')], "application/json", "dynamic");
    const other = '"0000000000000000000000000000000000000000"';
    expect(await statusOf(file, `IF-NONE-MATCH: ${file.etag}\r\n`)).toBe(
      "HTTP/1.1 304 Not Modified",
    );
    expect(await statusOf(file, `If-None-Match: ${file.etag}\r\nif-none-match: ${other}\r\n`)).toBe(
      "HTTP/1.1 304 Not Modified",
    );
    expect(await statusOf(file, `If-None-Match: ${other}\r\n`)).toBe("HTTP/1.1 200 OK");
  });
});
