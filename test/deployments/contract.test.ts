// One contract suite, two deployments: `velodata serve` alone, and nginx in front of the tree with
// `velodata serve --out` checking keys. Every answer is also checked against the OpenAPI document.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { request as httpRequest, STATUS_CODES } from "node:http";
import { connect as http2Connect } from "node:http2";
import { connect, createServer, type Socket } from "node:net";
import { join } from "node:path";
import { connect as tlsConnect } from "node:tls";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyFileSeconds } from "../../src/host/nginx/key-cache-files.js";
import { HEADERS_TOO_LARGE, MALFORMED_REQUEST, URI_TOO_LONG } from "../../src/routes/outcomes.js";
import { addKey, revokeKey } from "../../src/serve/keys/key-file.js";
import { answerShape, tempDir } from "../helpers.js";
import { editStates } from "../serve/serve-helpers.js";
import {
  DEFAULT_SITE,
  type Deployment,
  findNginx,
  KEY_CACHE_SECONDS,
  nginxInFront,
  REFRESH_SECONDS,
  serveAlone,
} from "./deployments.js";

const nginx = findNginx();
if ("missing" in nginx) {
  // In CI the nginx deployment must be proven, never skipped.
  if (process.env.CI)
    throw new Error(`CI: the nginx deployment cannot be tested: ${nginx.missing}`);
  console.warn(`contract suite: the nginx deployment is SKIPPED: ${nginx.missing}`);
}

// Debian's openssl, to make the TLS deployment a certificate.
const OPENSSL = ["/usr/bin/openssl", "/usr/local/bin/openssl"].find((path) => existsSync(path));
if (!OPENSSL) {
  if (process.env.CI) throw new Error("CI: the TLS deployment cannot be tested: no openssl");
  console.warn(
    "contract suite: the TLS deployment is SKIPPED: no openssl (apt-get install openssl)",
  );
}

const deployments: [string, () => Promise<Deployment>, boolean][] = [
  ["velodata serve alone", serveAlone, false],
  [
    "nginx in front of the tree, velodata serve checking keys",
    () => nginxInFront("path" in nginx ? nginx.path : ""),
    "missing" in nginx,
  ],
];

/** An answer as it came: its status, headers and body's bytes. */
interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * Sends the path exactly as written, with any headers, from `localAddress` (another client on
 * this machine: 127.0.0.2); the body as bytes.
 */
function raw(
  base: string,
  path: string,
  headers: Record<string, string> = {},
  method = "GET",
  localAddress?: string,
): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  const options = { hostname, port, path, method, headers, localAddress };
  return new Promise((resolve, reject) => {
    const request = httpRequest(options, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
        }),
      );
    });
    request.on("error", reject);
    request.end();
  });
}

/**
 * What a server answers to bytes no HTTP client would send, read as they come back until it closes
 * the connection; `halfClose`: the client's side is closed once they are sent.
 */
function rawRequest(base: string, bytes: string, halfClose = true): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      halfClose ? socket.end(bytes) : socket.write(bytes),
    );
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const [head = "", ...rest] = text.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(
        lines.map((line) => {
          const colon = line.indexOf(":");
          return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
        }),
      );
      resolve({
        status: Number(statusLine.split(" ")[1]),
        headers,
        body: Buffer.from(rest.join("\r\n\r\n"), "latin1"),
      });
    });
  });
}

/**
 * A connection that sends `head` whole, then `drip` a character every 300 ms (a slow-loris):
 * what came back, and how long after the drip began the server closed it (or `waitMs` passed).
 */
function heldOpen(
  base: string,
  head: string,
  drip = "",
  waitMs = 10_000,
): Promise<{ answer: string; closedAfterMs: number | null }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    let answer = "";
    let started = Date.now();
    let dripping: NodeJS.Timeout | undefined;
    const socket = connect(Number(port), hostname, () => {
      socket.write(head);
      started = Date.now();
      let sent = 0;
      dripping = setInterval(() => {
        if (sent < drip.length) socket.write(drip.charAt(sent++));
      }, 300);
    });
    const giveUp = setTimeout(() => socket.destroy(), waitMs);
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")));
    socket.on("error", reject);
    socket.on("close", () => {
      clearInterval(dripping);
      const elapsed = Date.now() - started;
      resolve({ answer, closedAfterMs: elapsed < waitMs ? elapsed : null });
      clearTimeout(giveUp);
    });
  });
}

/**
 * A Cache-Control's directives, in order: nginx sends an expiring answer's `max-age` and its scope
 * as two field lines, which a client reads joined (`max-age=60, private`).
 */
const directivesOf = (cacheControl: string | null): string[] =>
  (cacheControl ?? "").split(",").map((directive) => directive.trim());

const maxAgeOf = (cacheControl: string | null): number =>
  cacheControl?.includes("no-cache") ? 0 : Number(/max-age=(\d+)/.exec(cacheControl ?? "")?.[1]);

for (const [name, start, skipped] of deployments) {
  describe.skipIf(skipped)(`the API contract, ${name}`, () => {
    let deployment: Deployment;
    let key: string;
    const get = (path: string, init?: RequestInit) => {
      const url = new URL(path, deployment.base);
      url.searchParams.set("apiKey", key);
      return fetch(url, init);
    };
    beforeAll(async () => {
      deployment = await start();
      key = deployment.server.key;
    }, 30_000);
    afterAll(() => deployment?.stop());

    it("answers a station by its query form, its path form and any case of its contract", async () => {
      const byPath = await get("/vls/v3/stations/dublin/42");
      expect(byPath.status).toBe(200);
      const body = await byPath.text();
      expect(JSON.parse(body)).toMatchObject({ number: 42, contractName: "dublin" });
      for (const path of [
        "/vls/v3/stations/42?contract=dublin",
        "/vls/v3/stations/42?contract=Dublin",
        "/vls/v3/stations/Dublin/42",
        "/vls/v3/stations/DUBLIN/42",
      ]) {
        const response = await get(path);
        expect(response.status, path).toBe(200);
        expect(await response.text(), path).toBe(body);
      }
      const list = await (await get("/vls/v3/stations/dublin")).text();
      expect(await (await get("/vls/v3/stations?contract=Dublin")).text()).toBe(list);
      expect(await (await get("/vls/v1/stations?contract=dublin")).json()).toBeInstanceOf(Array);
    });

    it("gives the specification's statuses and bodies", async () => {
      const cases: [string, number, string][] = [
        ["/vls/v3/stations?contract=nowhere", 400, '{"error":"Specified contract does not exist"}'],
        ["/vls/v3/stations/nowhere", 400, '{"error":"Specified contract does not exist"}'],
        ["/vls/v3/stations/999999?contract=dublin", 404, ""],
        ["/vls/v3/stations/dublin/999999", 404, ""],
        ["/vls/v3/stations/42?contract=nowhere", 404, ""],
        [
          "/vls/v3/stations/4x?contract=dublin",
          400,
          '{"error":"station number must be a whole number, got \\"4x\\""}',
        ],
        // "x" could also be a contract, in the path form: both readings are said.
        [
          "/vls/v3/stations/x?contract=dublin",
          400,
          '{"error":"station number must be a whole number, got \\"x\\"; or, if x is a contract, /vls/v3/stations/x is its list, but ?contract= names another"}',
        ],
        [
          "/vls/v3/stations/42",
          400,
          '{"error":"the contract parameter is required: /vls/v3/stations/42?contract=NAME"}',
        ],
        [
          "/vls/v3/stations?contract=",
          400,
          '{"error":"the contract parameter is empty: ?contract=NAME"}',
        ],
        [
          "/vls/v3/stations?contract=dublin&contract=lyon",
          400,
          '{"error":"the contract parameter is given twice with different values"}',
        ],
        [
          "/vls/v3/stations/dublin/42?contract=lyon",
          400,
          '{"error":"the contract is given twice with different values, in the path and in the query"}',
        ],
        ["/vls/v3/nothing", 404, '{"error":"Resource Not Found"}'],
      ];
      for (const [path, status, body] of cases) {
        const response = await get(path);
        expect(response.status, path).toBe(status);
        expect(await response.text(), path).toBe(body);
      }
      // The path form with its query form's parameter given empty: as `…/dublin/42?contract=`.
      for (const path of [
        "/vls/v3/stations/dublin?contract=",
        "/vls/v3/stations/dublin/42?contract=",
      ])
        expect((await get(path)).status, path).toBe(200);
      const withoutKey = await fetch(`${deployment.base}/vls/v3/stations/dublin/42`);
      expect(withoutKey.status).toBe(403);
      expect(await withoutKey.text()).toBe('{"error":"Unauthorized"}');
      const wrongKey = await fetch(
        `${deployment.base}/vls/v3/stations?contract=dublin&apiKey=nope`,
      );
      expect(wrongKey.status).toBe(403);
      expect(await wrongKey.text()).toBe('{"error":"Unauthorized"}');
    });

    it("answers a number spelled otherwise than the tree's files (042, +42, 42.0) as a record that does not exist", async () => {
      // What a static host gives too: the tree holds …/stations/dublin/42 only.
      const answerOf = async (path: string) => answerShape(await get(path));
      const cases: [unknown: string, ...spellings: string[]][] = [
        [
          "/vls/v3/stations/dublin/999999",
          "/vls/v3/stations/dublin/042",
          "/vls/v3/stations/dublin/+42",
          "/vls/v3/stations/dublin/42.0",
          "/vls/v3/stations/dublin/%2042",
          "/vls/v3/stations/dublin/0000000000000042",
          // Past 15 digits: a number no station can have.
          "/vls/v3/stations/dublin/99999999999999999999",
        ],
        [
          "/vls/v3/stations/999999?contract=dublin",
          "/vls/v3/stations/042?contract=dublin",
          "/vls/v3/stations/1234567890123456?contract=dublin",
        ],
        ["/vls/v3/stations/999999?contract=nowhere", "/vls/v3/stations/042?contract=nowhere"],
        ["/vls/v1/stations/999999?contract=dublin", "/vls/v1/stations/042?contract=dublin"],
        ["/vls/v1/stations/dublin/999999", "/vls/v1/stations/dublin/042"],
        ["/parking/v1/contracts/lyon/parks/999999", "/parking/v1/contracts/lyon/parks/01"],
      ];
      for (const [unknown, ...spellings] of cases) {
        const expected = await answerOf(unknown);
        expect(expected.status, unknown).toBe(404);
        for (const path of spellings) expect(await answerOf(path), path).toEqual(expected);
      }
      // Not a number at all stays a clear 400.
      expect((await get("/vls/v3/stations/dublin/4x")).status).toBe(400);
    });

    it("serves the public downloads and documents without a key, with their own types", async () => {
      const csv = await fetch(`${deployment.base}/rest/vls/stations/dublin.csv`);
      expect(csv.status).toBe(200);
      expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect((await csv.text()).split("\n")[0]).toContain("number");
      const json = await fetch(`${deployment.base}/rest/vls/stations/dublin.json`);
      expect(json.headers.get("content-type")).toBe("application/json");
      expect(csv.headers.get("content-disposition")).toBeNull();
      const zip = await fetch(`${deployment.base}/download/velodata-static.zip`);
      expect(zip.headers.get("content-type")).toBe("application/zip");
      // Saved, not shown, under its own name; a page's script on another origin may read it.
      expect(zip.headers.get("content-disposition")).toBe(
        'attachment; filename="velodata-static.zip"',
      );
      expect(zip.headers.get("access-control-expose-headers")).toContain("Content-Disposition");
      expect(
        Buffer.from(await zip.arrayBuffer())
          .subarray(0, 2)
          .toString(),
      ).toBe("PK");
      const openapi = await fetch(`${deployment.base}/openapi.json`);
      expect(((await openapi.json()) as { openapi: string }).openapi).toBe("3.1.0");
      expect(openapi.headers.get("access-control-allow-origin")).toBe("*");
    });

    it("sends ETags, answers 304 to If-None-Match, and the cache lifetimes of serve", async () => {
      const first = await get("/vls/v3/stations?contract=dublin");
      const etag = first.headers.get("etag") as string;
      expect(etag).toMatch(/^"[^"]+"$/);
      const again = await get("/vls/v3/stations?contract=dublin", {
        headers: { "If-None-Match": etag },
      });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe("");
      // No representation metadata but what guides a cache (RFC 9110 §15.4.5).
      expect(again.headers.get("content-type")).toBeNull();
      expect(again.headers.get("etag")).toBe(etag);
      const dynamic = maxAgeOf(first.headers.get("cache-control"));
      expect(dynamic).toBeGreaterThan(REFRESH_SECONDS - 60);
      expect(dynamic).toBeLessThanOrEqual(REFRESH_SECONDS);
      // A keyed answer is the client's alone: a shared cache would go on answering a revoked key.
      for (const answer of [first, again])
        expect(directivesOf(answer.headers.get("cache-control"))).toContain("private");
      for (const path of ["/vls/v3/contracts", "/vls/v3/stations/dublin/42", "/vls/v1/contracts"])
        expect(directivesOf((await get(path)).headers.get("cache-control")), path).toEqual(
          expect.arrayContaining(["private"]),
        );
      expect((await get("/vls/v3/contracts")).headers.get("cache-control")).toBe(
        "private, max-age=3600",
      );
      // Public answers stay public, as a static host sends them.
      expect((await fetch(`${deployment.base}/openapi.json`)).headers.get("cache-control")).toBe(
        "public, max-age=3600",
      );
      const feed = await fetch(`${deployment.base}/contracts/dublin/gbfs/v3/station_status.json`);
      expect(directivesOf(feed.headers.get("cache-control"))).toContain("public");
      expect(directivesOf(feed.headers.get("cache-control"))).not.toContain("private");
      expect((await get("/vls/v3/nothing")).headers.get("cache-control")).toBe("no-store");
      expect((await get("/vls/v3/contracts")).headers.get("access-control-allow-origin")).toBe("*");
      // Readable by a page's script, for its own revalidation.
      for (const answer of [first, await get("/vls/v3/contracts")])
        expect(answer.headers.get("access-control-expose-headers")).toBe(
          "ETag, Retry-After, Content-Disposition, Content-Range",
        );
    });

    it("evaluates If-Match: the answer's own tag or * goes on, another is a JSON 412", async () => {
      const path = "/vls/v3/stations/dublin/42";
      const etag = (await get(path)).headers.get("etag") as string;
      for (const ifMatch of [etag, `"other", ${etag}`, "*"])
        expect((await get(path, { headers: { "If-Match": ifMatch } })).status).toBe(200);
      for (const ifMatch of ['"other"', `W/${etag}`]) {
        const refused = await get(path, { headers: { "If-Match": ifMatch } });
        expect([refused.status, refused.headers.get("content-type")]).toEqual([
          412,
          "application/json",
        ]);
        expect(refused.headers.get("access-control-allow-origin")).toBe("*");
        expect(await refused.json()).toEqual({ error: "Precondition Failed" });
      }
    });

    it("sends the precompressed bytes clients ask for, which decode to the plain answer", async () => {
      const path = `/vls/v3/stations?apiKey=${key}`;
      const plain = (await raw(deployment.base, path)).body;
      const br = await raw(deployment.base, path, { "accept-encoding": "br" });
      expect(br.headers["content-encoding"]).toBe("br");
      expect(brotliDecompressSync(br.body).equals(plain)).toBe(true);
      const gzip = await raw(deployment.base, path, { "accept-encoding": "gzip" });
      expect(gzip.headers["content-encoding"]).toBe("gzip");
      expect(gunzipSync(gzip.body).equals(plain)).toBe(true);
      expect(gzip.headers.vary).toBe("Accept-Encoding");
      // An answer too small to have variants is the same whatever the client accepts.
      const station = await raw(
        deployment.base,
        `/vls/v3/stations/42?contract=dublin&apiKey=${key}`,
        {
          "accept-encoding": "gzip, br",
        },
      );
      expect(station.status).toBe(200);
      expect(station.headers["content-encoding"]).toBeUndefined();
      expect(station.headers.vary).toBeUndefined();
    });

    it("answers HEAD without a body, refuses other methods with 405 and Allow", async () => {
      const head = await raw(deployment.base, `/vls/v3/contracts?apiKey=${key}`, {}, "HEAD");
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      expect(head.headers["content-type"]).toBe("application/json");
      const post = await fetch(`${deployment.base}/vls/v3/contracts?apiKey=${key}`, {
        method: "POST",
      });
      expect(post.status).toBe(405);
      expect(post.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
      expect(await post.text()).toBe('{"error":"Method Not Allowed"}');
      // nginx refuses TRACE itself, before any location: the same JSON answer.
      const trace = await raw(deployment.base, `/vls/v3/contracts?apiKey=${key}`, {}, "TRACE");
      expect([trace.status, trace.headers["content-type"], trace.headers.allow]).toEqual([
        405,
        "application/json",
        "GET, HEAD, OPTIONS",
      ]);
      expect(trace.headers["access-control-allow-origin"]).toBe("*");
      expect(trace.body.toString()).toBe('{"error":"Method Not Allowed"}');
    });

    it("tells browsers not to sniff any answer: files, 304s, pages, errors, preflights, malformed requests", async () => {
      const { hostname, port } = new URL(deployment.base);
      const host = `Host: ${hostname}:${port}\r\n`;
      const station = await get("/vls/v3/stations/dublin/42");
      const etag = station.headers.get("etag") as string;
      const answers: [string, { status: number; headers: Headers | RawAnswer["headers"] }][] = [
        ["a keyed file", station],
        [
          "its 304",
          await get("/vls/v3/stations/dublin/42", { headers: { "If-None-Match": etag } }),
        ],
        ["a public file, gzip", await fetch(`${deployment.base}/openapi.json`)],
        ["the portal's page", await fetch(`${deployment.base}/`)],
        ["a JSON error", await get("/vls/v3/nothing")],
        ["no key", await fetch(`${deployment.base}/vls/v3/contracts`)],
        ["a preflight", await raw(deployment.base, "/vls/v3/contracts", {}, "OPTIONS")],
        [
          "a malformed request line",
          await rawRequest(deployment.base, `GET /openapi.json?x=\u00e9 HTTP/1.1\r\n${host}\r\n`),
        ],
      ];
      for (const [what, answer] of answers) {
        const value =
          answer.headers instanceof Headers
            ? answer.headers.get("x-content-type-options")
            : answer.headers["x-content-type-options"];
        expect([what, answer.status > 0, value]).toEqual([what, true, "nosniff"]);
      }
    });

    it("answers a CORS preflight on any path with 204 and what a page may ask, no key needed", async () => {
      for (const path of [
        "/vls/v3/stations/dublin/42",
        "/contracts/dublin/gbfs/gbfs.json",
        "/nothing",
      ]) {
        const preflight = await raw(
          deployment.base,
          path,
          {
            Origin: "https://app.example",
            "Access-Control-Request-Method": "GET",
          },
          "OPTIONS",
        );
        expect(preflight.status, path).toBe(204);
        expect(preflight.body.length, path).toBe(0);
        expect(
          [
            "allow",
            "access-control-allow-origin",
            "access-control-allow-methods",
            "access-control-allow-headers",
            "access-control-max-age",
          ].map((name) => preflight.headers[name]),
          path,
        ).toEqual(["GET, HEAD, OPTIONS", "*", "GET, HEAD, OPTIONS", "*", "86400"]);
      }
    });

    it("refuses traversal and serves no dotfile, manifest or key check file", async () => {
      const dots = await raw(deployment.base, `/vls/v3/../v3/contracts?apiKey=${key}`);
      expect(dots.status).toBe(400);
      expect(dots.body.toString()).toBe(
        '{"error":"Bad request path: dot segments are not allowed in paths"}',
      );
      const encoded = await raw(deployment.base, `/vls/v3/stations/dublin%2f42?apiKey=${key}`);
      expect(encoded.status).toBe(400);
      for (const path of [
        "/.out.velodata/lock",
        "/manifest.json",
        "/.hidden",
        "/_headers",
        "/_velodata_uri_too_long", // nginx's own error pages, internal there
        "/_velodata_method_not_allowed",
      ]) {
        const response = await fetch(`${deployment.base}${path}?apiKey=${key}`);
        expect(response.status, path).toBe(404);
        expect(await response.text(), path).toBe('{"error":"Resource Not Found"}');
      }
    });

    it("refuses raw bytes past ASCII in the request line, in the key or the path, as a malformed request", async () => {
      // What no client's encoder sends (it writes %FF): Node refuses the line, and nginx, which
      // takes it, must not hand the key on to a check that Node would refuse (a 503 for anyone).
      const { hostname, port } = new URL(deployment.base);
      const host = `Host: ${hostname}:${port}\r\n`;
      for (const target of [
        `/vls/v3/contracts?apiKey=${key.slice(0, 20)}\xff${key.slice(21)}`,
        "/vls/v3/stations/dublin/42\u00e9",
        "/openapi.json?x=\u00e9",
      ]) {
        const answer = await rawRequest(deployment.base, `GET ${target} HTTP/1.1\r\n${host}\r\n`);
        expect([answer.status, answer.headers["content-type"]], target).toEqual([
          400,
          "application/json",
        ]);
        expect(JSON.parse(answer.body.toString()), target).toEqual({
          error: MALFORMED_REQUEST.error,
        });
      }
    });

    it("accepts a key added while running and refuses it within 10 s of its revocation", async () => {
      const { server } = deployment;
      const added = await addKey(server.keysFile, "late", new Date());
      const statusWith = async (candidate: string) =>
        (await fetch(`${deployment.base}/vls/v3/stations/dublin/42?apiKey=${candidate}`)).status;
      const eventually = async (candidate: string, status: number) => {
        const deadline = Date.now() + 10_000;
        let last = await statusWith(candidate);
        while (last !== status && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          last = await statusWith(candidate);
        }
        return last;
      };
      expect(await eventually(added.key, 200)).toBe(200);
      await revokeKey(server.keysFile, added.stored.id, new Date());
      expect(await eventually(added.key, 403)).toBe(403);
      expect(await statusWith(key)).toBe(200);
    }, 25_000);

    it("limits a key with a limit to its requests a minute, then 429 with Retry-After", async () => {
      const { server } = deployment;
      const limited = await addKey(server.keysFile, "limited", new Date(), 3);
      const path = `/vls/v3/stations/dublin/42?apiKey=${limited.key}`;
      // A request id of the client's own spares no count (only one a key check counted does).
      const forged = { "X-Velodata-Request": "forged" };
      // Known once the server has read the keys file again; a refused key is counted by no limit.
      const deadline = Date.now() + 10_000;
      let first = await raw(deployment.base, path, forged);
      while (first.status === 403 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        first = await raw(deployment.base, path, forged);
      }
      const answers = [first];
      for (let request = 0; request < 3; request++)
        answers.push(await raw(deployment.base, path, forged));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
      const last = answers[3] as RawAnswer;
      expect(JSON.parse(last.body.toString())).toEqual({ error: "Too Many Requests" });
      expect(Number(last.headers["retry-after"])).toBeGreaterThan(50);
      expect(Number(last.headers["retry-after"])).toBeLessThanOrEqual(60);
      // The limit is that key's alone.
      expect((await get("/vls/v3/stations/dublin/42")).status).toBe(200);
      await revokeKey(server.keysFile, limited.stored.id, new Date());
    }, 25_000);

    it("counts a limited key's request once, when nginx hands it on after the check (a 404)", async () => {
      const { server } = deployment;
      const limited = await addKey(server.keysFile, "limited", new Date(), 2);
      const asked = (path: string) => raw(deployment.base, `${path}?apiKey=${limited.key}`);
      const deadline = Date.now() + 10_000;
      let first = await asked("/vls/v3/stations/dublin/42");
      while (first.status === 403 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        first = await asked("/vls/v3/stations/dublin/42");
      }
      const statuses = [first.status];
      for (const path of ["/vls/v3/stations/dublin/424242", "/vls/v3/stations/dublin/42"])
        statuses.push((await asked(path)).status);
      expect(statuses).toEqual([200, 404, 429]);
      await revokeKey(server.keysFile, limited.stored.id, new Date());
    }, 25_000);

    it("changes answers and their ETags at a refresh", async () => {
      const before = await get("/vls/v3/stations/dublin/42");
      const etag = before.headers.get("etag");
      expect(((await before.json()) as { lastUpdate: string }).lastUpdate).toBe(
        "2025-02-08T16:44:06Z",
      );
      await editStates(deployment.server.source, (text) =>
        text.replace(
          '"lastUpdate": "2025-02-08T16:44:06Z"',
          '"lastUpdate": "2025-02-08T16:50:00Z"',
        ),
      );
      expect((await deployment.server.handle.refreshNow()).ok).toBe(true);
      const after = await get("/vls/v3/stations/42?contract=dublin");
      expect(((await after.json()) as { lastUpdate: string }).lastUpdate).toBe(
        "2025-02-08T16:50:00Z",
      );
      expect(after.headers.get("etag")).not.toBe(etag);
      const stale = await get("/vls/v3/stations/dublin/42", {
        headers: { "If-None-Match": etag as string },
      });
      expect(stale.status).toBe(200);
    });
  });
}

describe.skipIf("missing" in nginx)("nginx in front of the tree", () => {
  let deployment: Deployment;
  beforeAll(async () => {
    deployment = await nginxInFront("path" in nginx ? nginx.path : "");
  }, 30_000);
  afterAll(() => deployment?.stop());

  // nginx's own ETags ("mtime-size" in hex) tell which answers it sent from files.
  const NGINX_ETAG = /^"[0-9a-f]+-[0-9a-f]+"$/;
  const etagOf = async (path: string) =>
    (await fetch(`${deployment.base}${path}`)).headers.get("etag");

  it("answers the canonical spellings from files, other spellings through velodata serve", async () => {
    const key = deployment.server.key;
    for (const path of [
      `/vls/v3/stations/dublin/42?apiKey=${key}`,
      `/vls/v3/stations/42?contract=dublin&apiKey=${key}`,
      `/vls/v3/stations?apiKey=${key}&contract=dublin`,
      "/rest/vls/stations/dublin.csv",
      "/openapi.json",
    ])
      expect(await etagOf(path), path).toMatch(NGINX_ETAG);
    expect(await etagOf(`/vls/v3/stations/Dublin/42?apiKey=${key}`)).not.toMatch(NGINX_ETAG);
  });

  it("resumes a download as velodata serve does: the same bytes and Content-Range for a Range", async () => {
    const zip = "/download/velodata-static.zip";
    for (const range of ["bytes=100-199", "bytes=-50", "bytes=1000-"]) {
      const front = await raw(deployment.base, zip, { Range: range });
      const served = await raw(deployment.server.base, zip, { Range: range });
      expect([front.status, served.status], range).toEqual([206, 206]);
      expect(front.headers["content-range"], range).toMatch(/^bytes \d+-\d+\/\d+$/);
      expect(front.headers["content-range"], range).toBe(served.headers["content-range"]);
      expect(front.body.equals(served.body), range).toBe(true);
    }
  });

  it("answers several ranges, a range past the end and a 304 as its OpenAPI document declares them", async () => {
    // Through fetch: checked against the document (nginx's multipart parts; its 416's file tag).
    const station = `/vls/v3/stations/dublin/42?apiKey=${deployment.server.key}`;
    for (const path of ["/download/velodata-static.zip", station]) {
      const parts = await fetch(`${deployment.base}${path}`, {
        headers: { Range: "bytes=0-9,20-29" },
      });
      expect([parts.status, parts.headers.get("content-type")], path).toEqual([
        206,
        expect.stringMatching(/^multipart\/byteranges; boundary=/),
      ]);
      const past = await fetch(`${deployment.base}${path}`, {
        headers: { Range: "bytes=999999999-", Connection: "close" },
      });
      expect([past.status, past.headers.get("etag")], path).toEqual([416, expect.any(String)]);
      // Not kept by a cache as its file is: a range asked of a file that grows is for later.
      expect(past.headers.get("cache-control")?.split(/\s*,\s*/), path).toContain("no-store");
      // A range unit's name in any case (RFC 9110 §14.1).
      const upper = await fetch(`${deployment.base}${path}`, { headers: { Range: "BYTES=0-9" } });
      expect([upper.status, (await upper.arrayBuffer()).byteLength], path).toEqual([206, 10]);
      // A 304 with the file's headers, the bundle's Content-Disposition among them.
      const etag = (await fetch(`${deployment.base}${path}`)).headers.get("etag") ?? "";
      const kept = await fetch(`${deployment.base}${path}`, { headers: { "If-None-Match": etag } });
      expect(kept.status, path).toBe(304);
    }
  });

  it("answers only its server_name: another host name goes to the default site, as on Debian", async () => {
    const other = await raw(deployment.base, "/openapi.json", { Host: "elsewhere.example" });
    expect(other.body.toString()).toBe(DEFAULT_SITE);
    const named = await raw(deployment.base, "/openapi.json", { Host: "127.0.0.1" });
    expect(JSON.parse(named.body.toString()).openapi).toMatch(/^3\./);
  });

  it("never writes the key in its access log, but names the client by the key's id", async () => {
    const { key, keyId } = deployment.server;
    await fetch(`${deployment.base}/vls/v3/stations/dublin/42?apiKey=${key}`);
    // Within nginx's key cache: the id comes from the cached check.
    await fetch(`${deployment.base}/vls/v3/stations/dublin/30?apiKey=${key}`);
    await fetch(`${deployment.base}/vls/v3/stations/dublin/42?apiKey=wrong-key`);
    await fetch(`${deployment.base}/openapi.json`);
    // Query forms: the contract after the path (a key given as the contract hidden).
    await fetch(`${deployment.base}/vls/v3/stations/42?apiKey=${key}&contract=dublin`);
    await fetch(`${deployment.base}/vls/v3/stations?contract=${key}&apiKey=${key}`);
    // A key in the path, by a client's mistake: `&` for `?`, the `?` encoded, a key for a segment.
    const encoded = [...key].map((digit) => `%${digit.charCodeAt(0).toString(16)}`).join("");
    // A page whose own URL holds the key, sent by the browser as the Referer.
    await fetch(`${deployment.base}/openapi.json`, {
      headers: { Referer: `${deployment.base}/vls/v3/contracts?apiKey=${key}` },
    });
    // A client naming itself with its key (a script's own User-Agent).
    await fetch(`${deployment.base}/openapi.json`, {
      headers: { "User-Agent": `city-dashboard/1.0 (apiKey=${key})` },
    });
    for (const path of [
      `/vls/v3/contracts&apiKey=${key}`,
      `/vls/v3/contracts%3FapiKey=${key.toUpperCase()}`,
      `/vls/v3/stations/${key}?contract=dublin`,
      `/vls/v3/contracts/${encoded}`,
    ])
      await fetch(`${deployment.base}${path}`);
    const log = await readFile(deployment.accessLog as string, "utf8");
    const line = (request: string, status: number) =>
      log.split("\n").find((each) => each.includes(`"${request}" ${status} `));
    // Where HTTP auth puts the user: log tools count requests per client.
    expect(line("GET /vls/v3/stations/dublin/42", 200)).toMatch(
      new RegExp(`^127\\.0\\.0\\.1 - ${keyId} \\[`),
    );
    expect(line("GET /vls/v3/stations/dublin/30", 200)).toMatch(
      new RegExp(`^127\\.0\\.0\\.1 - ${keyId} \\[`),
    );
    expect(line("GET /vls/v3/stations/dublin/42", 403)).toMatch(/^127\.0\.0\.1 - - \[/);
    expect(line("GET /openapi.json", 200)).toMatch(/^127\.0\.0\.1 - - \[/);
    expect(line("GET /vls/v3/stations/42?contract=dublin", 200)).toMatch(
      new RegExp(`^127\\.0\\.0\\.1 - ${keyId} \\[`),
    );
    expect(line("GET /vls/v3/stations?contract=<redacted>", 400)).toBeDefined();
    expect(log).not.toContain(key);
    expect(log).not.toContain(key.toUpperCase());
    expect(log).not.toContain(encoded.slice(0, 48));
    expect(log).toContain('"GET /vls/v3/contracts&apiKey=<redacted>" 404 ');
    expect(log).toContain('"city-dashboard/1.0 (apiKey=<redacted>" ');
    expect(log).not.toContain("wrong-key");
  });

  it("alone on its port, answers a request line or headers past 16 KB, or another HTTP version, with JSON errors", async () => {
    // With Debian's default site, that site answers them: nginx cannot tell their host.
    const alone = await nginxInFront("path" in nginx ? nginx.path : "", { alone: true });
    try {
      const long = await raw(
        alone.base,
        `/vls/v3/stations?contract=dublin&x=${"a".repeat(17_000)}`,
      );
      const big = await raw(alone.base, "/vls/v3/stations?contract=Dublin", {
        "X-Big": "a".repeat(17_000),
      });
      // Each line under 16 KB, together over it: serve would refuse them, so nginx does.
      const many = await raw(alone.base, `/vls/v3/stations/dublin/42?apiKey=${alone.server.key}`, {
        "X-A": "a".repeat(9_000),
        "X-B": "b".repeat(9_000),
      });
      // A path climbing above the root, which nginx refuses before any location: JSON still.
      const climbing = await rawRequest(alone.base, "GET /../x HTTP/1.1\r\nHost: x\r\n\r\n");
      expect([climbing.status, climbing.headers["content-type"]]).toEqual([
        400,
        "application/json",
      ]);
      // An HTTP version it does not take: nginx's own refusal, JSON still.
      const version = await rawRequest(alone.base, "GET /openapi.json HTTP/2.0\r\nHost: x\r\n\r\n");
      expect([version.status, version.headers["content-type"]]).toEqual([505, "application/json"]);
      expect(version.headers["access-control-allow-origin"]).toBe("*");
      // A method in lower case: no HTTP parser reads it.
      const lower = await rawRequest(
        alone.base,
        "get /vls/v3/contracts HTTP/1.1\r\nHost: x\r\n\r\n",
      );
      // As velodata serve answers it (the default site's page when nginx is not alone on its port).
      const hostless = await rawRequest(alone.base, "GET /vls/v3/contracts HTTP/1.1\r\n\r\n");
      for (const [answer, outcome] of [
        [long, URI_TOO_LONG],
        [big, HEADERS_TOO_LARGE],
        [many, HEADERS_TOO_LARGE],
        [lower, MALFORMED_REQUEST],
        [hostless, MALFORMED_REQUEST],
      ] as const) {
        expect([answer.status, answer.headers["content-type"]]).toEqual([
          outcome.status,
          "application/json",
        ]);
        expect(answer.headers["access-control-allow-origin"]).toBe("*");
        expect(answer.headers["x-content-type-options"]).toBe("nosniff");
        expect(JSON.parse(answer.body.toString())).toEqual({ error: outcome.error });
      }
    } finally {
      await alone.stop();
    }
  });

  it("answers its own refusals (preconditions, ranges, transfer codings) as JSON, not HTML pages", async () => {
    const key = deployment.server.key;
    const station = `/vls/v3/stations/dublin/42?apiKey=${key}`;
    const zip = "/download/velodata-static.zip";
    // nginx closes the connection after a refusal its filters made, though it says keep-alive.
    const once = (path: string, headers: Record<string, string>) =>
      raw(deployment.base, path, { ...headers, Connection: "close" });
    const refused: [RawAnswer, number][] = [
      [await once("/openapi.json", { "If-Match": '"other"' }), 412],
      [
        await once(zip, {
          "If-Unmodified-Since": "Sat, 01 Jan 2000 00:00:00 GMT",
        }),
        412,
      ],
      [await once(zip, { Range: "bytes=999999999-" }), 416],
      [await once(station, { Range: "bytes=999999999-" }), 416],
      [
        await rawRequest(
          deployment.base,
          "GET /openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: gzip\r\n\r\n",
        ),
        501,
      ],
    ];
    for (const [answer, status] of refused) {
      expect([answer.status, answer.headers["content-type"]]).toEqual([status, "application/json"]);
      expect(answer.headers["access-control-allow-origin"]).toBe("*");
      expect(JSON.parse(answer.body.toString())).toEqual({ error: STATUS_CODES[status] });
    }
  });

  it("names its tree to velodata serve: /status through nginx says serve keeps it", async () => {
    const status = await (await fetch(`${deployment.base}/status`)).json();
    expect(status.front).toEqual({ tree: status.tree.path, kept: true });
  });

  it("answers /status 503 in front of a velodata serve that keeps no tree: nginx's would stay as written", async () => {
    // Simulated states, fresh: serve alone is ok, and only nginx's tree makes it not.
    const unkept = await nginxInFront("path" in nginx ? nginx.path : "", {
      serve: { out: undefined, simulate: true, seed: 3 },
    });
    try {
      expect((await fetch(`${unkept.server.base}/status`)).status).toBe(200);
      const response = await fetch(`${unkept.base}/status`);
      expect(response.status).toBe(503);
      const { ok, front } = await response.json();
      expect({ ok, kept: front.kept }).toEqual({ ok: false, kept: false });
      expect(unkept.server.lines.filter((line) => line.includes(" front server: "))).toEqual([
        expect.stringContaining(`answers from ${front.tree}, which this server does not keep`),
      ]);
    } finally {
      await unkept.stop();
    }
  });

  it("alone on its port, hands an HTTP/1.0 request without Host to velodata serve with a Host it takes", async () => {
    const alone = await nginxInFront("path" in nginx ? nginx.path : "", { alone: true });
    try {
      // Another spelling of the contract: nginx has no file for it, velodata serve answers.
      const answer = await rawRequest(
        alone.base,
        `GET /vls/v3/stations/Dublin/42?apiKey=${alone.server.key} HTTP/1.0\r\n\r\n`,
        false, // nginx drops a request handed on whose client has gone
      );
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body.toString()).number).toBe(42);
    } finally {
      await alone.stop();
    }
  });

  it("gives velodata serve's 429 after --max-key-failures wrong keys, each counted once", async () => {
    const limited = await nginxInFront("path" in nginx ? nginx.path : "", {
      serve: { maxKeyFailures: 2 },
    });
    try {
      const wrong = `/vls/v3/stations/dublin/42?apiKey=${"0".repeat(40)}`;
      const answers = [];
      for (let attempt = 0; attempt < 3; attempt++) answers.push(await raw(limited.base, wrong));
      expect(answers.map((answer) => answer.status)).toEqual([403, 403, 429]);
      const last = answers[2] as RawAnswer;
      expect(JSON.parse(last.body.toString())).toEqual({ error: "Too Many Requests" });
      expect(Number(last.headers["retry-after"])).toBeGreaterThan(5);
      // Counted by the client's address, which nginx forwards, not by nginx's own.
      const other = await raw(limited.base, wrong, {}, "GET", "127.0.0.2");
      expect(other.status).toBe(403);
      // A valid key is answered still.
      const valid = await raw(
        limited.base,
        `/vls/v3/stations/dublin/42?apiKey=${limited.server.key}`,
      );
      expect(valid.status).toBe(200);
    } finally {
      await limited.stop();
    }
  });

  it("shows /status whole only to the clients --status-details-from names, by the address nginx serves", async () => {
    const front = await nginxInFront("path" in nginx ? nginx.path : "", {
      serve: { statusDetailsFrom: ["127.0.0.1"] },
    });
    try {
      const statusFrom = async (localAddress: string, headers: Record<string, string> = {}) =>
        JSON.parse(
          (await raw(front.base, "/status", headers, "GET", localAddress)).body.toString(),
        );
      const whole = await statusFrom("127.0.0.1");
      expect(whole.tree.path).toBe(whole.front.tree);
      expect(whole).toHaveProperty("memory");
      const health = await statusFrom("127.0.0.2");
      expect(health.release).toBe(whole.release);
      for (const field of ["staticSource", "tree", "front", "memory"])
        expect(health, field).not.toHaveProperty(field);
      // A name the client gives is not taken: nginx appends the address it serves.
      const claiming = await statusFrom("127.0.0.2", { "X-Forwarded-For": "127.0.0.1" });
      expect(claiming).not.toHaveProperty("memory");
    } finally {
      await front.stop();
    }
  });

  it("counts a wrong key's check by the client nginx serves, neither by nginx nor by a name the client gives", async () => {
    const limited = await nginxInFront("path" in nginx ? nginx.path : "", {
      serve: { maxKeyFailures: 2 },
    });
    try {
      const wrong = `/vls/v3/stations/dublin/42?apiKey=${"0".repeat(40)}`;
      // Another client, claiming to be this one (an X-Forwarded-For nginx appends to).
      const claiming = { "X-Forwarded-For": "127.0.0.1" };
      const statuses = [];
      for (let attempt = 0; attempt < 2; attempt++)
        statuses.push((await raw(limited.base, wrong, claiming, "GET", "127.0.0.2")).status);
      // This client's first wrong key: no other's checks were counted against it.
      statuses.push((await raw(limited.base, wrong)).status);
      // The other's third: its own, each of its requests counted once.
      statuses.push((await raw(limited.base, wrong, claiming, "GET", "127.0.0.2")).status);
      expect(statuses).toEqual([403, 403, 403, 429]);
    } finally {
      await limited.stop();
    }
  });

  it("answers 404 to a client asking for velodata serve's key check, as to any unknown path", async () => {
    const key = deployment.server.key;
    for (const path of [
      `/_velodata/key-check?apiKey=${key}`,
      `/_velodata//key-check?apiKey=${key}`, // nginx merges slashes
      `/%5Fvelodata/key-check?apiKey=${key}`,
      "/_velodata/key-check?apiKey=wrong",
    ]) {
      const answer = await raw(deployment.base, path);
      expect([answer.status, answer.headers["content-type"]], path).toEqual([
        404,
        "application/json",
      ]);
      expect(answer.body.toString(), path).toBe('{"error":"Resource Not Found"}');
      expect(answer.headers["x-velodata-key-id"], path).toBeUndefined();
    }
  });

  it("removes a key check's file, which names the key, within the seconds said of the key's last request", async () => {
    const { server } = deployment;
    const added = await addKey(server.keysFile, "cached", new Date());
    const path = `/vls/v3/stations/dublin/42?apiKey=${added.key}`;
    // Known once the server has read the keys file again; a refusal is not cached.
    const deadline = Date.now() + 10_000;
    while ((await raw(deployment.base, path)).status !== 200 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const lastAsked = Date.now();
    const naming = async () => {
      const folder = deployment.keyCache as string;
      const files = await readdir(folder, { recursive: true, withFileTypes: true });
      const texts = await Promise.all(
        files
          .filter((file) => file.isFile())
          .map((file) => readFile(join(file.parentPath, file.name), "latin1").catch(() => "")),
      );
      return texts.some((text) => text.includes(added.key));
    };
    expect(await naming()).toBe(true);
    // nginx's cache manager removes it at its first look past the key cache's validity.
    const said = keyFileSeconds(KEY_CACHE_SECONDS) * 1000;
    while ((await naming()) && Date.now() - lastAsked < said + 500)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await naming()).toBe(false);
    await revokeKey(server.keysFile, added.stored.id, new Date());
  }, 30_000);

  it("answers any other method with serve's 405 itself, handing neither it nor its body on", async () => {
    const { server } = deployment;
    const key = server.key;
    const logged = server.lines.length;
    // Large enough that serve, refusing before it reads the body, closes with most of it unread.
    const body = Buffer.alloc(100_000, "x");
    const asked = [
      ["POST", "/openapi.json"],
      ["POST", `/vls/v3/stations/dublin/42?apiKey=${key}`],
      ["PUT", `/vls/v3/stations/Dublin/42?apiKey=${key}`],
      ["DELETE", "/status"],
      ["PATCH", "/_velodata/key-check"],
    ] as const;
    const answers = await Promise.all(
      asked.map(([method, path]) => fetch(`${deployment.base}${path}`, { method, body })),
    );
    const alone = await fetch(`${server.base}/openapi.json`, { method: "POST" });
    // serve's own 405, bar what each server says of itself and of its connection.
    const own = (response: Response) => {
      const headers: [string, string][] = [];
      response.headers.forEach((value, name) => {
        if (!["date", "server", "connection", "keep-alive"].includes(name))
          headers.push([name, value]);
      });
      return headers;
    };
    for (const [index, answer] of answers.entries()) {
      expect(answer.status, asked[index]?.join(" ")).toBe(405);
      expect(own(answer)).toEqual(own(alone));
      expect(await answer.text()).toBe('{"error":"Method Not Allowed"}');
    }
    expect(alone.status).toBe(405);
    // velodata serve saw none of them: its log, written a moment later, shows its own 405 alone.
    const refusals = () => server.lines.slice(logged).filter((line) => / 405 /.test(line));
    const deadline = Date.now() + 5_000;
    while (refusals().length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(refusals()).toEqual([expect.stringMatching(/ POST \/openapi.json 405 /)]);
  });

  it("lets go of a connection whose request head or body comes too slowly, and limits each address's requests in progress", async () => {
    const limited = await nginxInFront("path" in nginx ? nginx.path : "", {
      alone: true,
      limits: { clientTimeoutSeconds: 2, concurrentPerAddress: 2 },
    });
    try {
      const host = `Host: ${new URL(limited.base).host}\r\n`;
      const slowHead = "X-Slow: abcdefghijklmnopqrstuvwxyz\r\n\r\n";
      // A head sent a byte at a time, as the first request of a connection and as the next one.
      const [first, next] = await Promise.all([
        heldOpen(limited.base, `GET /openapi.json HTTP/1.1\r\n${host}`, slowHead),
        heldOpen(
          limited.base,
          `GET /openapi.json HTTP/1.1\r\n${host}\r\nGET /openapi.json HTTP/1.1\r\n${host}`,
          slowHead,
        ),
      ]);
      for (const slow of [first, next]) {
        // Closed at the timeout, with no answer (nginx answers none).
        expect(slow.closedAfterMs).toBeGreaterThan(1_500);
        expect(slow.closedAfterMs).toBeLessThan(3_500);
      }
      expect(first.answer).toBe("");
      expect(next.answer.match(/HTTP\/1\.1 \d+/g)).toEqual(["HTTP/1.1 200"]);
      // Two requests in progress from this address, their bodies held back; the third is refused.
      const waiting = `GET /status HTTP/1.1\r\n${host}Content-Length: 10\r\n\r\n`;
      const held = [heldOpen(limited.base, waiting), heldOpen(limited.base, waiting)];
      await new Promise((resolve) => setTimeout(resolve, 300));
      const refused = await raw(limited.base, "/openapi.json");
      expect([refused.status, refused.headers["content-type"]]).toEqual([429, "application/json"]);
      expect(JSON.parse(refused.body.toString())).toEqual({ error: "Too Many Requests" });
      expect(refused.headers["retry-after"]).toBe("1");
      expect(refused.headers["access-control-allow-origin"]).toBe("*");
      expect(refused.headers["x-content-type-options"]).toBe("nosniff");
      expect(refused.headers["cache-control"]).toBe("no-store");
      // Another address is not refused, nor a keyed file from it (its location's own error pages).
      const station = `/vls/v3/stations/dublin/42?apiKey=${limited.server.key}`;
      expect((await raw(limited.base, station, {}, "GET", "127.0.0.2")).status).toBe(200);
      // The bodies that never come are given up after the same time, without an answer.
      for (const body of await Promise.all(held)) {
        expect(body.closedAfterMs).toBeGreaterThan(1_500);
        expect(body.closedAfterMs).toBeLessThan(3_500);
        expect(body.answer).toBe("");
      }
      expect((await raw(limited.base, station)).status).toBe(200);
      // A keyed file past the limit: the same JSON 429, not nginx's HTML page.
      const again = [heldOpen(limited.base, waiting), heldOpen(limited.base, waiting)];
      await new Promise((resolve) => setTimeout(resolve, 300));
      const keyed = await raw(limited.base, station);
      expect([keyed.status, JSON.parse(keyed.body.toString())]).toEqual([
        429,
        { error: "Too Many Requests" },
      ]);
      await Promise.all(again);
    } finally {
      await limited.stop();
    }
  }, 30_000);

  it("answers the JSON 503 within seconds when velodata serve is stuck, not after nginx's minute", async () => {
    const stuck = await nginxInFront("path" in nginx ? nginx.path : "", { alone: true });
    // serve replaced by a listener that takes connections and never answers (a stopped process,
    // a machine swapping): on the port nginx hands keyed requests and key checks to.
    const { port } = new URL(stuck.server.base);
    await stuck.server.handle.stop();
    const held: Socket[] = [];
    const silent = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(Number(port), "127.0.0.1", resolve));
    try {
      for (const path of [
        `/vls/v3/stations/dublin/42?apiKey=${stuck.server.key}`, // its key check
        "/status", // handed to serve
      ]) {
        const answer = await raw(stuck.base, path);
        expect([answer.status, JSON.parse(answer.body.toString())], path).toEqual([
          503,
          { error: "Service Unavailable" },
        ]);
      }
    } finally {
      for (const socket of held) socket.destroy();
      silent.close();
      await stuck.stop();
    }
    // nginx's default would hold each of them 60 s: the test's own limit says it did not.
  }, 30_000);

  // Last: it stops velodata serve.
  it("answers the API's JSON 503 with Retry-After while velodata serve is down, files without a key still", async () => {
    await deployment.server.handle.stop();
    for (const path of [
      "/vls/v3/stations/dublin/42?apiKey=a-key-not-checked-yet", // the key check fails
      `/vls/v3/stations/Dublin/42?apiKey=${deployment.server.key}`, // handed to serve
      "/status",
      // Handed to serve too, with an extension nginx knows a type for: the error is JSON still.
      "/portal/no-such.css",
      "/rest/vls/stations/Dublin.csv",
    ]) {
      const answer = await raw(deployment.base, path);
      expect([answer.status, answer.headers["content-type"]], path).toEqual([
        503,
        "application/json",
      ]);
      expect(JSON.parse(answer.body.toString())).toEqual({ error: "Service Unavailable" });
      expect(answer.headers["retry-after"]).toBe("5");
      expect(answer.headers["access-control-allow-origin"]).toBe("*");
      // Through fetch, checked against the document nginx still serves: a client generated from
      // it must know this 503 and its Retry-After, on the operation asked as on /status.
      expect((await fetch(`${deployment.base}${path}`)).status, path).toBe(503);
    }
    expect((await raw(deployment.base, "/openapi.json")).status).toBe(200);
    // A page of another origin may still ask for it: nginx answers the preflight itself.
    const preflight = await raw(deployment.base, "/openapi.json", {}, "OPTIONS");
    expect([preflight.status, preflight.headers["access-control-allow-methods"]]).toEqual([
      204,
      "GET, HEAD, OPTIONS",
    ]);
    // nginx's error lines quote the request line, key and all: none may reach its error log.
    if (deployment.errorLog) {
      const errors = await readFile(deployment.errorLog, "utf8");
      expect(errors).not.toContain("a-key-not-checked-yet");
      expect(errors).not.toContain(deployment.server.key);
    }
    // The failures still show, in the access log (without the keys).
    const log = await readFile(deployment.accessLog as string, "utf8");
    expect(log).toMatch(/"GET \/vls\/v3\/stations\/dublin\/42" 503 /);
    expect(log).not.toContain("a-key-not-checked-yet");
  });
});

describe.skipIf("missing" in nginx || !OPENSSL)("nginx with TLS and HTTP/2", () => {
  let deployment: Deployment;
  let tlsFiles: { certificate: string; key: string };
  beforeAll(async () => {
    const dir = await tempDir("velodata tls-");
    const tls = { certificate: join(dir, "cert.pem"), key: join(dir, "key.pem") };
    const made = spawnSync(OPENSSL as string, [
      ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"],
      ...["-keyout", tls.key, "-out", tls.certificate],
    ]);
    expect(made.status, made.stderr?.toString()).toBe(0);
    tlsFiles = tls;
    deployment = await nginxInFront("path" in nginx ? nginx.path : "", { tls });
  }, 30_000);
  afterAll(() => deployment?.stop());

  it("answers over HTTP/2 with TLS, from the tree's files and through velodata serve", async () => {
    const session = http2Connect(deployment.base, { rejectUnauthorized: false });
    try {
      const get = (path: string) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const stream = session.request({ ":path": path });
          let status = 0;
          let body = "";
          stream.on("response", (headers) => (status = Number(headers[":status"])));
          stream.setEncoding("utf8");
          stream.on("data", (chunk: string) => (body += chunk));
          stream.on("end", () => resolve({ status, body }));
          stream.on("error", reject);
        });
      const key = deployment.server.key;
      const station = await get(`/vls/v3/stations/dublin/42?apiKey=${key}`);
      expect(station.status).toBe(200);
      expect(JSON.parse(station.body).number).toBe(42);
      expect(session.alpnProtocol).toBe("h2");
      expect((await get("/vls/v3/stations/dublin/42?apiKey=wrong")).status).toBe(403);
      expect((await get(`/vls/v3/stations/Dublin/42?apiKey=${key}`)).status).toBe(200);
    } finally {
      session.close();
    }
  });

  it("takes TLS 1.2 and 1.3 only (Mozilla's intermediate), not the 1.0 and 1.1 nginx's default allows", async () => {
    // Alone on its port: the handshake is the default server's, here a stand-in for Debian's site.
    const alone = await nginxInFront("path" in nginx ? nginx.path : "", {
      tls: tlsFiles,
      alone: true,
    });
    const { port } = new URL(alone.base);
    const handshake = (version: "TLSv1" | "TLSv1.1" | "TLSv1.2" | "TLSv1.3") =>
      new Promise<string>((resolve) => {
        const socket = tlsConnect({
          ...{ host: "127.0.0.1", port: Number(port), rejectUnauthorized: false },
          ...{ minVersion: version, maxVersion: version },
          // OpenSSL's own floor would refuse 1.0 and 1.1 on this side: only nginx's answer counts.
          ciphers: "DEFAULT:@SECLEVEL=0",
        });
        socket.once("secureConnect", () => {
          resolve(socket.getProtocol() ?? "");
          socket.destroy();
        });
        socket.once("error", () => resolve("refused"));
      });
    try {
      expect(await handshake("TLSv1.3")).toBe("TLSv1.3");
      expect(await handshake("TLSv1.2")).toBe("TLSv1.2");
      expect(await handshake("TLSv1.1")).toBe("refused");
      expect(await handshake("TLSv1")).toBe("refused");
    } finally {
      await alone.stop();
    }
  });

  it("answers plain HTTP sent to its TLS port with a JSON 400 naming https, not nginx's HTML page", async () => {
    // raw() speaks plain HTTP to the host and port of the https:// base.
    const plain = await raw(deployment.base, "/vls/v3/contracts");
    expect(plain.status).toBe(400);
    expect(plain.headers["content-type"]).toMatch(/^application\/json/);
    expect(plain.headers["access-control-allow-origin"]).toBe("*");
    expect(plain.headers["cache-control"]).toBe("no-store");
    expect(JSON.parse(plain.body.toString()).error).toMatch(/https:\/\//);
  });
});
