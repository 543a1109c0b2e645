import { spawn } from "node:child_process";
import { readFile, realpath, rm, writeFile } from "node:fs/promises";
import { get } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../src/commands/build.js";
import { memoryOutput } from "../../src/commands/output.js";
import { preview } from "../../src/commands/preview.js";
import { answerShape, FIXTURES, tempDir } from "../helpers.js";
import { startTestServer } from "../serve/serve-helpers.js";

let base: string;
let close: () => void;
beforeAll(async () => {
  const out = join(await tempDir(), "out");
  await build({ source: FIXTURES, out, output: memoryOutput() });
  const server = await preview({ out, port: 0, output: memoryOutput() });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

/** A GET with no Accept-Encoding (the plain file), its body as sent; fails past 5 s of silence. */
function plainGet(url: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const request = get(url, { timeout: 5000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve(Buffer.concat(chunks)));
      response.on("error", reject);
    });
    request.on("timeout", () => request.destroy(new Error(`no answer for 5 s: ${url}`)));
    request.on("error", reject);
  });
}

describe("velodata preview", () => {
  it("serves extension-less endpoint paths from their .json files as application/json", async () => {
    for (const path of [
      "/vls/v3/contracts",
      "/vls/v3/stations",
      "/parking/v1/contracts/nantes/parks",
      "/parking/v1/contracts/nantes/parks/89",
    ]) {
      const response = await fetch(base + path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type"), path).toMatch(/^application\/json/);
      await response.json();
    }
  });

  it("types the CSV downloads, scripts, styles and texts as UTF-8, as the API and nginx do", async () => {
    const response = await fetch(`${base}/rest/vls/stations/lyon.csv`);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBeNull();
    for (const [path, type] of [
      ["/portal/portal.js", "text/javascript; charset=utf-8"],
      ["/portal/portal.css", "text/css; charset=utf-8"],
      ["/docs/LICENSE.txt", "text/plain; charset=utf-8"],
    ]) {
      for (const encoding of ["identity", "gzip"]) {
        const typed = await fetch(base + (path as string), {
          headers: { "Accept-Encoding": encoding },
        });
        expect(typed.status, path).toBe(200);
        expect(typed.headers.get("content-type"), `${path} ${encoding}`).toBe(type);
      }
    }
  });

  it("sends the bundle as a file to save, as the API and nginx do", async () => {
    const response = await fetch(`${base}/download/velodata-static.zip`);
    expect(response.headers.get("content-disposition")).toBe(
      'attachment; filename="velodata-static.zip"',
    );
  });

  it("answers the query forms from their path-form files", async () => {
    const list = await (await fetch(`${base}/vls/v3/stations?contract=besancon`)).json();
    expect(list).toHaveLength(4);
    expect((await fetch(`${base}/vls/v3/stations/89?contract=nantes`)).status).toBe(404);
    expect(await (await fetch(`${base}/vls/v3/stations/3?contract=nantes`)).json()).toMatchObject({
      name: "00003 - GARE SUD",
    });
  });

  it("serves the portal at / and the API reference at /docs/, as a static host would", async () => {
    for (const path of ["/", "/docs/"]) {
      const response = await fetch(base + path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type"), path).toMatch(/^text\/html/);
      expect(await response.text(), path).toContain("<!doctype html>");
    }
  });

  it("sends a folder's page asked without its slash to it, as static hosts do", async () => {
    const moved = await fetch(`${base}/docs`, { redirect: "manual" });
    expect([moved.status, moved.headers.get("location")]).toEqual([301, "./docs/"]);
  });

  it("sends a list's precompressed sibling, with CORS, nosniff and an ETag", async () => {
    const response = await fetch(`${base}/vls/v3/stations`, {
      headers: { "Accept-Encoding": "br" },
    });
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("etag")).toBeTruthy();
    expect(await response.json()).toEqual(await (await fetch(`${base}/vls/v3/stations`)).json());
  });

  it("sends no encoding the client refuses (q=0), choosing by q-values as velodata serve does", async () => {
    const encodingFor = async (acceptEncoding: string) => {
      const response = await fetch(`${base}/vls/v3/stations`, {
        headers: { "Accept-Encoding": acceptEncoding },
      });
      await response.arrayBuffer();
      return response.headers.get("content-encoding");
    };
    expect(await encodingFor("gzip;q=0")).toBeNull();
    expect(await encodingFor("br;q=0, gzip")).toBe("gzip");
    expect(await encodingFor("br;q=0, *")).toBe("gzip");
    expect(await encodingFor("br;q=0.5, gzip")).toBe("gzip");
    expect(await encodingFor("*;q=0")).toBeNull();
    expect(await encodingFor("gzip, br")).toBe("br");
  });

  it("answers a preflight with 204 and other methods with 405 and Allow, as velodata serve does", async () => {
    const preflight = await fetch(`${base}/vls/v3/contracts`, {
      method: "OPTIONS",
      headers: { Origin: "https://app.example", "Access-Control-Request-Method": "GET" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
    expect(await preflight.text()).toBe("");
    for (const method of ["POST", "PUT", "DELETE"]) {
      const refused = await fetch(`${base}/openapi.json`, { method });
      expect(refused.status, method).toBe(405);
      expect(refused.headers.get("allow"), method).toBe("GET, HEAD, OPTIONS");
      expect(refused.headers.get("access-control-allow-origin"), method).toBe("*");
      expect(await refused.json(), method).toEqual({ error: "Method Not Allowed" });
    }
  });

  it("refuses an overlong request line or headers with serve's JSON 414 and 431, CORS included", async () => {
    const long = await fetch(`${base}/vls/v3/contracts?x=${"a".repeat(17_000)}`);
    expect(long.status).toBe(414);
    expect(long.headers.get("access-control-allow-origin")).toBe("*");
    expect(await long.json()).toEqual({
      error: "the request line is longer than the 16 KB a server takes",
    });
    const big = await fetch(`${base}/openapi.json`, { headers: { "X-Big": "a".repeat(17_000) } });
    expect(big.status).toBe(431);
    expect(big.headers.get("access-control-allow-origin")).toBe("*");
    expect(await big.json()).toEqual({
      error: "the request's headers are larger than the 16 KB a server takes",
    });
  });

  it("sends each file whole while a refresh renames new versions over it", async () => {
    const out = join(await tempDir(), "out");
    await build({ source: FIXTURES, out, output: memoryOutput() });
    const server = await preview({ out, port: 0, output: memoryOutput() });
    const at = `http://127.0.0.1:${(server.address() as AddressInfo).port}/vls/v3/stations`;
    const file = join(await realpath(out), "vls/v3/stations.json");
    // The plain file only: its siblings would be sent to a client asking for them.
    await Promise.all([rm(`${file}.gz`), rm(`${file}.br`)]);
    const short = await readFile(file);
    const long = Buffer.concat([short, Buffer.alloc(200_000, " ")]); // valid JSON still
    await writeFile(`${file}.short`, short);
    await writeFile(`${file}.long`, long);
    // As a refresh does, from another process: a whole new file renamed over the old, again and again.
    const swapping = spawn(process.execPath, [
      "-e",
      `const fs = require("node:fs"); const file = ${JSON.stringify(file)};
      for (let n = 0; ; n++) for (const v of ["short", "long"]) {
        fs.copyFileSync(file + "." + v, file + ".next");
        fs.renameSync(file + ".next", file);
        if (n === 0 && v === "long") process.stdout.write("swapping\\n");
      }`,
    ]);
    try {
      await new Promise((resolve) => swapping.stdout.once("data", resolve));
      const bodies: Buffer[] = [];
      for (let request = 0; request < 60; request++) bodies.push(await plainGet(at));
      for (const body of bodies) expect([short.length, long.length]).toContain(body.length);
      // Both versions were sent: the requests did meet the renames.
      expect(new Set(bodies.map((body) => body.length)).size).toBe(2);
      expect(bodies.every((body) => body.equals(body.length === short.length ? short : long))).toBe(
        true,
      );
    } finally {
      swapping.kill();
      server.close();
    }
  });

  it("answers 404 for what is not in the tree", async () => {
    expect((await fetch(`${base}/vls/v3/nothing`)).status).toBe(404);
    expect((await fetch(`${base}/vls/v3/stations/dublin/999999`)).status).toBe(404);
  });

  it("answers what the tree has no file for as velodata serve does: status, JSON body and headers", async () => {
    const server = await startTestServer();
    const answerOf = async (url: string) => answerShape(await fetch(url));
    try {
      for (const path of [
        // Unknown contract.
        "/vls/v3/stations?contract=nowhere",
        "/vls/v3/stations/nowhere",
        "/vls/v3/stations/42?contract=nowhere",
        "/vls/v1/stations?contract=nowhere",
        "/parking/v1/contracts/nowhere/parks",
        "/parking/v1/contracts/dublin/parks",
        "/contracts/nowhere/gbfs/gbfs.json",
        // Unknown station or parking, or one spelled otherwise than the tree does.
        "/vls/v3/stations/dublin/999999",
        "/vls/v3/stations/999999?contract=dublin",
        "/vls/v3/stations/dublin/042",
        "/vls/v3/stations/042?contract=dublin",
        "/vls/v3/stations/dublin/+42",
        "/vls/v3/stations/dublin/99999999999999999999",
        "/vls/v1/stations/dublin/999999",
        "/vls/v1/stations/042?contract=dublin",
        "/parking/v1/contracts/lyon/parks/999999",
        "/parking/v1/contracts/lyon/parks/01",
        // Unknown path, and a route asked wrongly.
        "/vls/v3/nothing",
        "/nothing",
        "/vls/v3/stations/4x?contract=dublin",
        // A contract given twice: its path alone names a file.
        "/vls/v3/stations?contract=dublin&contract=lyon",
        "/vls/v3/stations/dublin?contract=lyon",
        "/vls/v3/stations/dublin/42?contract=lyon",
        // A path serve refuses before any route: a malformed escape, an encoded slash, `//`.
        "/vls/v3/stations/dublin/%E0%A4%A",
        "/vls/v3/stations/dublin%2F42",
        "/vls/v3//stations",
      ]) {
        const served = await answerOf(
          `${server.base}${path}${path.includes("?") ? "&" : "?"}apiKey=${server.key}`,
        );
        expect(served.status, path).toBeGreaterThanOrEqual(400);
        expect(await answerOf(`${base}${path}`), path).toEqual(served);
      }
    } finally {
      await server.handle.stop();
    }
  });

  it("answers each path of the reference it serves as the reference says: /status, the server's only, a documented 404", async () => {
    const document = (await (await fetch(`${base}/openapi.json`)).json()) as {
      paths: Record<string, { get?: { description: string; responses: Record<string, unknown> } }>;
    };
    const fixed = Object.entries(document.paths).filter(
      ([path, item]) => item.get && !path.includes("{"),
    );
    expect(fixed.map(([path]) => path)).toContain("/status");
    const undocumented: string[] = [];
    for (const [path, item] of fixed) {
      const status = (await fetch(`${base}${path}?apiKey=anything`)).status;
      if (!(String(status) in (item.get?.responses ?? {}))) undocumented.push(`${path}: ${status}`);
    }
    expect(undocumented).toEqual([]);
    const status = await fetch(`${base}/status`);
    expect(status.status).toBe(404);
    expect(status.headers.get("access-control-allow-origin")).toBe("*");
    expect(document.paths["/status"]?.get?.description).toContain("`velodata serve` only");
  });

  it("keeps the static host's rules to itself, as Netlify and Cloudflare Pages do", async () => {
    expect((await fetch(`${base}/_headers`)).status).toBe(404);
    expect((await fetch(`${base}/_redirects`)).status).toBe(404);
  });

  it("refuses a folder that holds no velodata tree, saying what to run", async () => {
    const folder = await tempDir();
    await writeFile(join(folder, "index.html"), "<p>not a tree</p>");
    await expect(preview({ out: folder, port: 0, output: memoryOutput() })).rejects.toThrow(
      `no velodata tree at ${folder}`,
    );
  });

  it("warns that no key is checked when it listens where other machines reach it", async () => {
    const out = join(await tempDir(), "out");
    await build({ source: FIXTURES, out, output: memoryOutput() });
    const warned = memoryOutput();
    const everywhere = await preview({ out, port: 0, host: "0.0.0.0", output: warned });
    const port = (everywhere.address() as AddressInfo).port;
    everywhere.close();
    expect(warned.lines).toContain(
      `warning: preview checks no key: on 0.0.0.0 anyone who reaches port ${port} reads the keyed API (/vls/…, /parking/…) without one; ` +
        "preview on 127.0.0.1 (the default), and answer clients with velodata serve, which checks keys",
    );
    for (const host of ["127.0.0.1", "localhost"]) {
      const quiet = memoryOutput();
      (await preview({ out, port: 0, host, output: quiet })).close();
      expect(quiet.lines.filter((line) => line.includes("checks no key"))).toEqual([]);
    }
  });

  it("warns when the tree's GBFS links lead to another local port than the one it previews on", async () => {
    // Built without --base-url, the tree names http://127.0.0.1:8080; previewed elsewhere, a GBFS
    // consumer following its discovery files would leave the preview.
    const local = join(await tempDir(), "out");
    await build({ source: FIXTURES, out: local, output: memoryOutput() });
    const warned = memoryOutput();
    const elsewhere = await preview({ out: local, port: 0, output: warned });
    const port = (elsewhere.address() as AddressInfo).port;
    elsewhere.close();
    expect(warned.lines).toContain(
      `warning: the tree's GBFS discovery files and OpenAPI document link to http://127.0.0.1:8080, not to this preview (port ${port}): ` +
        `build it with --base-url http://127.0.0.1:${port} to follow them here, or preview it on the port it names`,
    );
    // A tree built for its public address links there on purpose: no warning.
    const public_ = join(await tempDir(), "out");
    await build({
      source: FIXTURES,
      out: public_,
      baseUrl: "https://bikes.example.org",
      output: memoryOutput(),
    });
    const quiet = memoryOutput();
    (await preview({ out: public_, port: 0, output: quiet })).close();
    expect(quiet.lines.filter((line) => line.startsWith("warning"))).toEqual([]);
  });
});
