// Starts `serve` in-process on an ephemeral port over a writable copy of the fixtures, with one valid key.
import { readFile, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { memoryOutput } from "../../src/commands/output.js";
import { type ServeHandle, type ServeOptions, serve } from "../../src/commands/serve.js";
import { addKey } from "../../src/serve/keys/key-file.js";
import { dublin42ReportedAt, fixtureCopy } from "../helpers.js";
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

/** Dublin #42 renamed in the static source's stations.csv: an edit for the server to publish. */
export async function renamed42(served: TestServer, from: string, to: string): Promise<void> {
  const stations = join(served.source, "stations.csv");
  await writeFile(stations, (await readFile(stations, "utf8")).replace(from, to));
}

export async function editStates(source: string, edit: (text: string) => string): Promise<void> {
  const path = join(source, "states.json");
  await writeFile(path, edit(await readFile(path, "utf8")));
}

/**
 * For each time, the fixtures' states with Dublin #42 reported then, a refresh that succeeds, and
 * the station's answer after it: a minute's states published whatever else the refresh refused.
 */
export async function station42AtEachMinute<T>(
  server: TestServer,
  times: readonly string[],
): Promise<{ reported: string; ok: boolean; station: T }[]> {
  const states = join(server.source, "states.json");
  const original = await readFile(states, "utf8");
  const minutes: { reported: string; ok: boolean; station: T }[] = [];
  for (const reported of times) {
    await writeFile(states, dublin42ReportedAt(original, reported));
    const { ok } = await server.handle.refreshNow();
    const station = (await (await server.get("/vls/v3/stations/42?contract=dublin")).json()) as T;
    minutes.push({ reported, ok, station });
  }
  return minutes;
}
