// `velodata preview`: serves a built tree as a plain static host would (sirv), to look at it locally.

import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import { join } from "node:path";
import sirv from "sirv";
import { isLoopback } from "../publish/default-base-url.js";
import { typesOf } from "../routes/extension-types.js";
import { isFolderWithoutSlash, matchRoute, type RouteMatch } from "../routes/match-route.js";
import { EXPOSED_HEADERS, NO_SNIFF } from "../routes/methods.js";
import { METHOD_NOT_ALLOWED, NOT_FOUND } from "../routes/outcomes.js";
import { type ContractFacts, notFoundOf, resolveContract } from "../routes/resolve-contract.js";
import type { Outcome } from "../routes/route.js";
import { dispositionOf, fileOf, pathOf, ROUTE_LIST, routeOf } from "../routes/routes.js";
import { answerClientError, answerConnect } from "../serve/client-error.js";
import { negotiate } from "../serve/encoding.js";
import { folderLocation } from "../serve/folder-location.js";
import { parseTarget } from "../serve/request-target.js";
import { ALLOW, sendError, sendOptions } from "../serve/respond.js";
import { badPathMessage, safePath } from "../serve/safe-path.js";
import { HOST_FILES } from "../tree/host-files.js";
import { readTree } from "../tree/read-tree.js";
import { type Output, terminalOutput } from "./output.js";

// By the file's extension, as the route table types the files it serves.
const TYPES = typesOf(ROUTE_LIST);

export interface PreviewOptions {
  out: string;
  port?: number;
  host?: string;
  output?: Output;
}

export async function preview(options: PreviewOptions): Promise<Server> {
  const output = options.output ?? terminalOutput();
  // Only a tree velodata built (says plainly when there is none): another folder would be served
  // as if it were the API.
  const tree = readTree(options.out);
  // dev mode: the tree may be rebuilt while we serve it, so sirv must not index it once. As
  // `npm run serve:static` (sirv-cli --cors --etag): CORS, ETags, the .gz/.br siblings.
  const serveFile = sirv(options.out, {
    dev: true,
    extensions: ["json"],
    dotfiles: false,
    etag: true,
    gzip: true,
    brotli: true,
    setHeaders: (response, path) => {
      response.setHeader("Access-Control-Allow-Origin", "*");
      response.setHeader("Access-Control-Expose-Headers", EXPOSED_HEADERS);
      response.setHeader(NO_SNIFF.name, NO_SNIFF.value);
      // As the API and nginx type them: the CSV downloads, scripts, styles and texts are UTF-8
      // (names with accents; without a charset a browser reads a text file as windows-1252).
      const type = TYPES.get(path.slice(path.lastIndexOf(".") + 1));
      if (type) response.setHeader("Content-Type", type);
    },
  });
  const server = createServer((request, response) => {
    // As velodata serve and the nginx configuration answer them: sirv sends the file to any method.
    if (request.method === "OPTIONS") {
      sendOptions(response);
      return;
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      sendError(response, METHOD_NOT_ALLOWED.status, METHOD_NOT_ALLOWED.error, { Allow: ALLOW });
      return;
    }
    // sirv picks a sibling by the encoding's name alone: `gzip;q=0` ("not acceptable", RFC 9110
    // §12.4.2) would get the .gz. The encoding serve would send is the only one sirv is shown.
    const encoding = negotiate(request.headers["accept-encoding"]);
    if (encoding === "identity") delete request.headers["accept-encoding"];
    else request.headers["accept-encoding"] = encoding;
    const url = new URL(request.url ?? "/", "http://preview");
    // The path as sent, checked as velodata serve checks it (a malformed escape, an encoded slash,
    // `//`): refused with its 400 and JSON body. URL's pathname has already resolved some of it.
    const path = safePath(parseTarget(request.url ?? "/").path);
    if (!path.ok) {
      sendError(response, 400, badPathMessage(path.reason));
      return;
    }
    const { segments } = path;
    // The host's own rules are read by Netlify and Cloudflare Pages, never served by them.
    if (segments.length === 1 && HOST_FILES.includes(segments[0] as (typeof HOST_FILES)[number])) {
      sendOutcome(response, NOT_FOUND);
      return;
    }
    // A static host cannot see the query; show the file its path form would serve (`/` and
    // `/docs/` are folders' index.html, which sirv's json extension would not find).
    const { folder } = path;
    const match = matchRoute(segments, url.searchParams, folder);
    if (match.kind === "none" && !folder && isFolderWithoutSlash(segments, url.searchParams)) {
      response.writeHead(301, { Location: folderLocation(segments, url.search) }).end();
      return;
    }
    // A number spelled otherwise than the tree's (`042`) names no file: no such record. A request
    // serve refuses (a contract given twice, in the path and the query) is refused here too, though
    // its path alone names a file.
    if (match.kind === "absent" || match.kind === "invalid") {
      sendOutcome(response, missingOutcome(options.out, match));
      return;
    }
    if (match.kind === "endpoint") {
      request.url = `/${fileOf(pathOf(match.endpoint))}`;
      // As static hosts are told by `_headers`; sirv keeps what is set before it answers.
      const disposition = dispositionOf(routeOf(match.endpoint));
      if (disposition) response.setHeader("Content-Disposition", disposition);
    }
    // sirv takes a file's length from one look at it and its bytes from a second open: a refresh
    // renaming a new version in between sent the one's bytes under the other's length (cut short,
    // or a connection left waiting for the rest). Sent without a length, the body is the file
    // opened, whole, whichever it was; a range could not say of which, so the file goes whole.
    delete request.headers.range;
    if (request.method === "GET") withoutLength(response);
    serveFile(request, response, () => {
      response.removeHeader("Content-Disposition");
      // velodata serve's answer, status, JSON body and headers (CORS: a page of another origin
      // reads it too), as far as the tree's files tell it; no key is checked, as on a static host.
      sendOutcome(response, missingOutcome(options.out, match));
    });
  });
  // What Node's parser refuses before any handler (a request line or headers past 16 KB, a
  // malformed request, CONNECT): serve's JSON errors with CORS, not a bare status line.
  server.on("clientError", answerClientError);
  server.on("connect", answerConnect);
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 8080, host, resolve);
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  output.info(
    `previewing ${options.out} at http://${host}:${port}/ (the portal; the API at /vls/v3/contracts; Ctrl-C to stop)`,
  );
  // A preview checks no key: reachable from other machines, it hands the keyed API of a
  // production tree to anyone (a `--host 0.0.0.0` meant to look at the portal from a laptop).
  if (!LOOPBACK_HOST.test(host))
    output.warn(
      `warning: preview checks no key: on ${host} anyone who reaches port ${port} reads the keyed API (/vls/…, /parking/…) without one; ` +
        "preview on 127.0.0.1 (the default), and answer clients with velodata serve, which checks keys",
    );
  // The GBFS discovery files and the OpenAPI document link to the address the tree was built
  // for: a local one elsewhere than here leads a consumer to another server, or to none.
  const named = tree.manifest?.baseUrl;
  if (named && isLoopback(named) && portOf(new URL(named)) !== String(port))
    output.warn(
      `warning: the tree's GBFS discovery files and OpenAPI document link to ${named}, not to this preview (port ${port}): ` +
        `build it with --base-url http://${host.includes(":") ? `[${host}]` : host}:${port} to follow them here, or preview it on the port it names`,
    );
  return server;
}

// The addresses only this machine reaches.
const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|::1|\[::1\])$/i;

/** The response's 200 sent without Content-Length (chunked): its body ends where the file does. */
function withoutLength(response: ServerResponse): void {
  const writeHead = response.writeHead;
  response.writeHead = function (this: ServerResponse, ...args: Parameters<typeof writeHead>) {
    const [status, headers] = args;
    if (status === 200 && typeof headers === "object" && !Array.isArray(headers))
      delete (headers as Record<string, unknown>)["Content-Length"];
    return writeHead.apply(this, args);
  } as typeof writeHead;
}

const sendOutcome = (response: ServerResponse, outcome: Outcome): void =>
  sendError(response, outcome.status, outcome.error);

/**
 * What velodata serve answers for a request the tree has no file for: a route asked wrongly is its
 * 400, an unknown path its 404; a route's unknown contract, or a record it does not have, the
 * route's own answer, the contracts read from the tree as it is now (it may have been rebuilt).
 */
function missingOutcome(out: string, match: RouteMatch): Outcome {
  if (match.kind === "invalid") return { status: 400, error: match.message, meaning: "" };
  if (match.kind === "none") return NOT_FOUND;
  const contracts = contractsOf(out);
  if (!contracts) return NOT_FOUND;
  const resolved = resolveContract(contracts, match.endpoint);
  return "outcome" in resolved ? resolved.outcome : notFoundOf(resolved.endpoint);
}

/**
 * The tree's contracts (its contracts list), each with the parking API if it has its parks' list;
 * undefined while the list cannot be read (a tree being rebuilt): then nothing is known of them.
 */
function contractsOf(out: string): Map<string, ContractFacts> | undefined {
  const listed = (path: string) => existsSync(join(out, fileOf(path)));
  let names: string[];
  try {
    const list = readFileSync(join(out, fileOf(pathOf({ name: "contracts" }))), "utf8");
    names = (JSON.parse(list) as { name: string }[]).map((contract) => contract.name);
  } catch {
    return undefined;
  }
  return new Map(
    names.map((name) => [
      name.toLowerCase(),
      { name, parkingApi: listed(pathOf({ name: "parks", contract: name })) },
    ]),
  );
}

/** A URL's port, its scheme's default when it names none. */
const portOf = (url: URL): string => url.port || (url.protocol === "https:" ? "443" : "80");
