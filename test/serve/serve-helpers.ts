// Starts `serve` in-process on an ephemeral port over a writable copy of the fixtures, with one valid key.
import { readFile, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { memoryOutput } from "../../src/commands/output.js";
import { type ServeHandle, type ServeOptions, serve } from "../../src/commands/serve.js";
import { addKey } from "../../src/serve/keys/key-file.js";
import { fixtureCopy } from "../helpers.js";
import { checkAnswersOf } from "./openapi-check.js";

export interface TestServer {
  handle: ServeHandle;
  base: string;
  key: string;
  /** The key's id, as `velodata keys list` shows it. */
  keyId: string;
  keysFile: string;
  source: string;
  lines: string[];
  /** `fetch` with the valid key added. */
  get(path: string, init?: RequestInit): Promise<Response>;
}

export async function startTestServer(
  extra: Partial<Omit<ServeOptions, "source" | "keys" | "output">> = {},
): Promise<TestServer> {
  const source = await fixtureCopy();
  const keysFile = join(source, "..", "keys.json");
  const { key, stored } = await addKey(keysFile, "tests", new Date());
  const output = memoryOutput();
  // A refresh only when a test asks for one.
  const handle = await serve({ source, keys: keysFile, port: 0, refresh: 3600, output, ...extra });
  const base = handle.url;
  checkAnswersOf(base);
  const get = (path: string, init?: RequestInit) => {
    const url = new URL(path, base);
    url.searchParams.set("apiKey", key);
    return fetch(url, init);
  };
  return { handle, base, key, keyId: stored.id, keysFile, source, lines: output.lines, get };
}

/** Sends the path exactly as written (fetch would normalise `..` and friends away). */
export function rawGet(
  base: string,
  path: string,
  headers: Record<string, string | string[] | undefined> = {},
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ hostname, port, path, method: "GET" }, (response) => {
      Object.assign(headers, response.headers); // for a caller that wants them
      let body = "";
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on("error", reject);
    request.end();
  });
}

export async function editStates(source: string, edit: (text: string) => string): Promise<void> {
  const path = join(source, "states.json");
  await writeFile(path, edit(await readFile(path, "utf8")));
}
