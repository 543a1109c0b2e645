// `velodata nginx`: the configuration for nginx's `http` context (maps, key cache, server block), derived from the route table.

import { STATUS_CODES } from "node:http";
import { JSON_TYPE } from "../../routes/content-types.js";
import { typesOf } from "../../routes/extension-types.js";
import {
  CHECK_TICKET_HEADER,
  FRONT_TREE_HEADER,
  KEY_CHECK_PATH,
  KEY_ID_HEADER,
} from "../../routes/key-check.js";
import { cacheScopeOf, NOT_STORED_CACHE_CONTROL, STATIC_MAX_AGE } from "../../routes/max-age.js";
import {
  ALLOWED_METHODS,
  EXPOSED_HEADERS,
  NO_SNIFF,
  PREFLIGHT_ALLOWED_HEADERS,
  PREFLIGHT_MAX_AGE,
} from "../../routes/methods.js";
import {
  HEADERS_TOO_LARGE,
  MALFORMED_REQUEST,
  METHOD_NOT_ALLOWED,
  NOT_FOUND,
  PRECONDITION_FAILED,
  RANGE_NOT_SATISFIABLE,
  SERVE_UNAVAILABLE,
  SERVE_UNAVAILABLE_RETRY_SECONDS,
  TOO_MANY_AT_ONCE,
  TOO_MANY_AT_ONCE_RETRY_SECONDS,
  URI_TOO_LONG,
} from "../../routes/outcomes.js";
import type { AnyRoute, Outcome } from "../../routes/route.js";
import { answerLines, dispositionLines } from "./answer-map.js";
import { addressZoneLines, clientLimitLines } from "./client-limits.js";
import { keyFileSeconds } from "./key-cache-files.js";

export interface NginxOptions {
  /**
   * The instance's name (an nginx identifier), the prefix of every http-level name: the maps'
   * variables, the log format, the upstream and the key cache's zone.
   */
  name: string;
  /** The published tree (the `out` symlink: each refresh and rebuild is followed without a reload). */
  tree: string;
  /** `velodata serve --out TREE`: checks the keys and answers what files cannot. */
  upstream: URL;
  /** `listen` parameter: `80`, `127.0.0.1:8080`, `[::]:80`. */
  listen: string;
  /**
   * The host names answered (`server_name`), e.g. the --base-url's: a request naming another goes
   * to the default server (Debian's default site). None: this server answers the hosts no other
   * server names only if it is the default one.
   */
  serverNames?: readonly string[];
  /** Certificate and key files: the server listens with TLS and HTTP/2. */
  tls?: { certificate: string; key: string };
  /**
   * The version of the nginx it is for (`1.22.1`), which says how HTTP/2 is turned on; unknown:
   * the form every version takes.
   */
  nginxVersion?: string;
  /** Where nginx keeps the key check answers (they name the keys: keep it private). */
  cacheDir: string;
  /** Seconds a valid key is trusted without asking again: a revoked key stops working within this. */
  keyCacheSeconds: number;
  /** Seconds a request's head may take to come, and a body between two reads (see client-limits.ts). */
  clientTimeoutSeconds: number;
  /** Requests one client address may have in progress at once; 0: no limit (a CDN or proxy in front). */
  concurrentPerAddress: number;
  /** `serve --refresh`: a dynamic answer expires this long after its file was written. */
  refreshSeconds: number;
  /** A file, or `off` (benchmarks). */
  accessLog: string;
  /**
   * brotli_static: on, left out by the operator, or off as Debian's module
   * (`libnginx-mod-http-brotli-static`) is not enabled.
   */
  brotli: "on" | "left-out" | "not-enabled";
  /** Whatever is written in the header, e.g. the command that made it. */
  generatedBy: string;
}

// nginx's name of the key check's header, after `$upstream_http_`: lower case, `-` as `_`.
const KEY_ID_VARIABLE = KEY_ID_HEADER.toLowerCase().replaceAll("-", "_");

// nginx's own JSON error pages, where it redirects a request it refused before any location:
// velodata serve's outcome, at an internal URI (with its extra header lines).
interface OwnErrorPage {
  uri: string;
  outcome: Outcome;
  headers?: string;
  /**
   * The answer keeps the headers its file's location gave it (the range filter makes the 416 after
   * they were added, ETag, Content-Range and CORS among them): the page adds none, only its type.
   */
  afterFileHeaders?: boolean;
}
const URI_TOO_LONG_PAGE: OwnErrorPage = { uri: "/_velodata_uri_too_long", outcome: URI_TOO_LONG };
const HEADERS_TOO_LARGE_PAGE: OwnErrorPage = {
  uri: "/_velodata_headers_too_large",
  outcome: HEADERS_TOO_LARGE,
};
const METHOD_NOT_ALLOWED_PAGE: OwnErrorPage = {
  uri: "/_velodata_method_not_allowed",
  outcome: METHOD_NOT_ALLOWED,
  headers: `add_header Allow "${ALLOWED_METHODS}" always;`,
};
const MALFORMED_REQUEST_PAGE: OwnErrorPage = {
  uri: "/_velodata_malformed_request",
  outcome: MALFORMED_REQUEST,
};
/** For a client asking for velodata serve's key check, which is nginx's own to ask. */
const NOT_FOUND_PAGE: OwnErrorPage = { uri: "/_velodata_not_found", outcome: NOT_FOUND };
/**
 * What nginx refuses that velodata serve never does, as JSON with the status's own words: a body
 * on a GET past client_max_body_size, a transfer coding or HTTP version it does not take.
 */
const nginxOnly = (status: number, slug: string): OwnErrorPage => ({
  uri: `/_velodata_${slug}`,
  outcome: { status, error: STATUS_CODES[status] as string, meaning: "nginx's own refusal" },
});
// If-Match as serve evaluates it, and If-Unmodified-Since, which nginx has a file's time for.
const PRECONDITION_FAILED_PAGE: OwnErrorPage = {
  uri: "/_velodata_precondition_failed",
  outcome: PRECONDITION_FAILED,
};
/**
 * Plain HTTP sent to the TLS port (nginx's own code 497, its HTML page a 400): the 400 as JSON,
 * saying what to use instead.
 */
const PLAIN_HTTP_PAGE: OwnErrorPage = {
  uri: "/_velodata_plain_http",
  outcome: {
    status: 400,
    error: "Plain HTTP request sent to the HTTPS port: use https://",
    meaning: "nginx's own refusal",
  },
};
const CONTENT_TOO_LARGE_PAGE = nginxOnly(413, "content_too_large");
// A Range past a file's end, as serve refuses it.
const RANGE_NOT_SATISFIABLE_PAGE: OwnErrorPage = {
  uri: "/_velodata_range_not_satisfiable",
  outcome: RANGE_NOT_SATISFIABLE,
  afterFileHeaders: true,
  // Beside the file's max-age, which would let a cache keep the refusal as it keeps the file.
  headers: `add_header Cache-Control "${NOT_STORED_CACHE_CONTROL}" always;`,
};
// More requests in progress from one address than the limit per address allows.
const TOO_MANY_PAGE: OwnErrorPage = {
  uri: "/_velodata_too_many_requests",
  outcome: TOO_MANY_AT_ONCE,
  headers: `add_header Retry-After "${TOO_MANY_AT_ONCE_RETRY_SECONDS}" always;`,
};
const NOT_IMPLEMENTED_PAGE = nginxOnly(501, "not_implemented");
const VERSION_NOT_SUPPORTED_PAGE = nginxOnly(505, "version_not_supported");
/**
 * Those nginx gives in a file's location (on the file, or the limit per address): one that sets an
 * error_page of its own inherits none of the server's.
 */
const FILE_ERROR_PAGES = [
  PRECONDITION_FAILED_PAGE,
  CONTENT_TOO_LARGE_PAGE,
  RANGE_NOT_SATISFIABLE_PAGE,
  TOO_MANY_PAGE,
];
const ERROR_PAGES = [
  URI_TOO_LONG_PAGE,
  HEADERS_TOO_LARGE_PAGE,
  METHOD_NOT_ALLOWED_PAGE,
  MALFORMED_REQUEST_PAGE,
  NOT_FOUND_PAGE,
  ...FILE_ERROR_PAGES,
  NOT_IMPLEMENTED_PAGE,
  VERSION_NOT_SUPPORTED_PAGE,
  PLAIN_HTTP_PAGE,
];

/** A location answering from the tree's files: the key check, and what is handed to velodata serve. */
const answerFileLines = (n: string): string => `        auth_request /_velodata_auth;
        auth_request_set $${n}_key_id $upstream_http_${KEY_ID_VARIABLE};
        # A refused key or one past its limit: velodata serve gives the refusal itself (403 or 429,
        # with its body).
        error_page 403 = @velodata;
        # No such file (no such station): velodata serve knows the status and body the route gives
        # (the request's id tells it that the key check counted it already).
        error_page 404 = @velodata;
        error_page 500 502 503 504 = @velodata_unavailable;
${errorPageLines(FILE_ERROR_PAGES, 2)}
        log_not_found off;`;

/**
 * How long nginx waits for velodata serve before answering the JSON 503 (5xx → error_page): to
 * connect, and between two reads or writes. nginx's own 60 s would hold every keyed request a
 * minute while a server is stuck (stopped, swapping), and its connections pile up meanwhile. Every
 * answer is made before it is asked for: serve starts sending at once, whatever its size.
 */
const UPSTREAM_TIMEOUT_LINES = [
  "proxy_connect_timeout 2s;",
  "proxy_read_timeout 5s;",
  "proxy_send_timeout 5s;",
];

/** The tree nginx answers from, said to velodata serve with all it asks of it (see front-tree.ts). */
const frontTreeLine = (tree: string): string =>
  `proxy_set_header ${FRONT_TREE_HEADER} ${quote(tree)};`;

/**
 * How a request is handed to velodata serve, beside its URI: with its id, as its key check had,
 * and the tree this configuration answers from.
 */
const handOverLines = (n: string, tree: string): string =>
  [
    "proxy_http_version 1.1;",
    'proxy_set_header Connection "";',
    `proxy_set_header Host $${n}_host;`,
    "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
    `proxy_set_header ${CHECK_TICKET_HEADER} $request_id;`,
    frontTreeLine(tree),
    "proxy_buffering on;",
    ...UPSTREAM_TIMEOUT_LINES,
  ]
    .map((line) => `        ${line}`)
    .join("\n");

/** `error_page` lines sending each status to its JSON page, indented for `depth` blocks. */
const errorPageLines = (pages: readonly OwnErrorPage[], depth: number): string =>
  pages
    .map((page) => `${"    ".repeat(depth)}error_page ${page.outcome.status} = ${page.uri};`)
    .join("\n");

const quote = (text: string): string => `"${text.replace(/["\\]/g, "\\$&")}"`;

/** A regex matching exactly `text`. */
const exactly = (text: string): string => `^${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`;

export function nginxConfig(routes: readonly AnyRoute[], options: NginxOptions): string {
  // Every http-level name starts with the instance's: two configurations load in one nginx.
  const n = options.name;
  const answers = answerLines(routes, n)
    .map(({ regex, value }) => `    ${quote(`~${regex}`)} ${quote(value)};`)
    .join("\n");
  const types = [...typesOf(routes)]
    .map(([extension, type]) => `        ${quote(type)} ${extension};`)
    .join("\n");
  const dispositions = dispositionLines(routes, n)
    .map(({ file, disposition }) => `    ${quote(file)} ${quote(disposition)};`)
    .join("\n");
  const upstream = options.upstream.host;
  const key = `${KEY_CHECK_PATH}?apiKey=$${n}_key`;
  return `# ${options.generatedBy}
# Generated from velodata's route table: regenerate it after upgrading velodata, never edit by hand.
# nginx answers from the files of ${options.tree} and asks velodata serve (${options.upstream.origin})
# whether a key is valid; whatever a file cannot answer exactly goes to velodata serve.

# METHOD:RAW_URI → "ACCESS FRESHNESS FILE". Only canonical spellings match (lower-case contract
# names, plain numbers, no parameter but the key); any other goes to velodata serve.
map $request_method:$request_uri $${n}_answer {
    default "";
${answers}
}
map $${n}_answer $${n}_file {
    "~^\\S+ \\S+ (?<${n}_f>.+)$" $${n}_f;
    default "";
}
map $${n}_answer $${n}_access {
    "~^(?<${n}_a>\\S+) " $${n}_a;
    default "";
}
map $${n}_answer $${n}_freshness {
    "~^\\S+ (?<${n}_r>\\S+) " $${n}_r;
    default "";
}
# Who may keep a file's answer: keyed ones only the client (a shared cache would go on answering a
# key revoked since), as velodata serve says.
map $${n}_access $${n}_cache_scope {
    key ${cacheScopeOf("key")};
    default ${cacheScopeOf("public")};
}
# What velodata serve answers: no file of the tree, unless nginx answers itself with its JSON error
# pages for a request line or headers past its buffers (redirected there, with no file to find).
map $uri $${n}_own_error {
    ${ERROR_PAGES.map((page) => `"${page.uri}" 1;`).join("\n    ")}
    default "";
}
map "$${n}_file$${n}_own_error" $${n}_to_serve {
    "" 1;
    default "";
}
# Files to save, not show (the bundle): a browser's API explorer offers them as downloads. An
# empty value sends no header.
map $${n}_file $${n}_disposition {
    default "";
${dispositions}
}
# A request line with raw bytes past ASCII (a client's encoder writes %FF): velodata serve's
# parser refuses it, so nginx must neither hand it on nor put its key in a check (which would fail,
# a 503); it answers serve's 400 itself.
map $request_uri $${n}_raw_bytes {
    "~[^\\x21-\\x7e]" 1;
    default "";
}
# The key, read from the raw query (the first apiKey, as velodata serve reads it).
map $request_uri $${n}_key {
    "~^[^?]*\\?(?:[^&]*&)*?apiKey=(?<${n}_k>[^&#]*)" $${n}_k;
    default "";
}
# The Host handed to velodata serve: an HTTP/1.0 request may have none, which velodata serve
# refuses in the HTTP/1.1 it is handed on in (this server then has no name of its own to give when
# velodata nginx was given no --server-name).
map $host $${n}_host {
    "" localhost;
    default $host;
}
# The path without the query string: what the access log shows, so that no key is ever logged. A
# key in the path (a client's \`&apiKey=\` for \`?apiKey=\`, its \`?\` encoded) ends it, as velodata
# serve's log hides it: 16 hex digits or more, each maybe percent-encoded.
map $request_uri $${n}_path {
    "~*^(?<${n}_h>[^?]*?)(?:[0-9a-f]|%3[0-9]|%4[1-6]|%6[1-6]){16}" "\${${n}_h}<redacted>";
    "~^(?<${n}_p>[^?]*)" $${n}_p;
    default "";
}
# The contract a query form names (\`/vls/v3/stations/42?contract=dublin\`), after the path in the
# access log: the path alone does not say which network was asked. A key-like run hidden as above.
map $arg_contract $${n}_logged_contract {
    "" "";
    "~*(?:[0-9a-f]|%3[0-9]|%4[1-6]|%6[1-6]){16}" "?contract=<redacted>";
    "~^(?<${n}_lc>.+)$" "?contract=\${${n}_lc}";
}
# The Referer without its query string, the same way: a page whose own URL holds the key.
map $http_referer $${n}_referer {
    "~*^(?<${n}_rh>[^?#]*?)(?:[0-9a-f]|%3[0-9]|%4[1-6]|%6[1-6]){16}" "\${${n}_rh}<redacted>";
    "~^(?<${n}_r>[^?#]+)" $${n}_r;
    default "-";
}

# The User-Agent the same way, kept whole but from a key-like run on: a script may name itself
# with its key.
map $http_user_agent $${n}_agent {
    "" "-";
    "~*^(?<${n}_ah>.*?)(?:[0-9a-f]|%3[0-9]|%4[1-6]|%6[1-6]){16}" "\${${n}_ah}<redacted>";
    default $http_user_agent;
}

# The client's key by its id (as velodata keys list shows it) where HTTP auth puts the user, so that
# log tools count requests per client; "-" where no key was accepted (auth_request_set gives "").
map $${n}_key_id $${n}_client {
    "" "-";
    default $${n}_key_id;
}
log_format ${n} '$remote_addr - $${n}_client [$time_local] "$request_method $${n}_path$${n}_logged_contract" '
                    '$status $body_bytes_sent "$${n}_referer" "$${n}_agent" $request_time';

# Answers of the key check, by key: a valid key costs one round trip per ${options.keyCacheSeconds} s. Each file names
# its key: inactive as long as the answer is valid, so that nginx's cache manager removes it within
# ${keyFileSeconds(options.keyCacheSeconds)} s of the key's last request (it looks every 10 s at the latest).
proxy_cache_path ${quote(options.cacheDir)} levels=1:2 keys_zone=${n}_keys:1m max_size=16m inactive=${options.keyCacheSeconds}s use_temp_path=off;

${addressZoneLines(n, options.concurrentPerAddress)}

upstream ${n}_serve {
    server ${upstream};
    keepalive 16;
}

server {
${serverLines(options)}
    root ${quote(options.tree)};
    access_log ${options.accessLog === "off" ? "off" : `${quote(options.accessLog)} ${n}`};
    # nginx's error lines quote the request line, and with it the client's apiKey (and the key
    # check's URI): this server writes none, so that no key reaches a log. Its failures show in
    # the access log as their statuses (500, 502-504), and in velodata serve's own log.
    error_log /dev/null emerg;
    server_tokens off;
    # The tree's own path is a symlink switched at each rebuild: resolve it per request.
    disable_symlinks off;
    open_file_cache off;
    charset off;
    etag on;
    types {
${types}
    }
    default_type application/octet-stream;
    gzip_static on;
    gzip_vary on;
    ${BROTLI_LINES[options.brotli]}

    # Raw bytes past ASCII (see the map): serve's 400. Its page by a rewrite, not \`return 400\`:
    # error_page's redirect would run these lines again.
    if ($${n}_raw_bytes) {
        rewrite ^ ${MALFORMED_REQUEST_PAGE.uri} last;
    }
    # A CORS preflight is velodata serve's whatever the path: answered here, so that a page of another
    # origin still reads the public files while velodata serve is down or restarting.
    if ($request_method = OPTIONS) {
        rewrite ^ ${PREFLIGHT_URI} last;
    }
    # Any other method but GET and HEAD: serve's 405, from nginx, whose body it discards. Handed on,
    # serve would refuse it before reading a body and close, which nginx takes for serve failing
    # (a 503 telling the client to retry).
    if ($request_method !~ ^(?:GET|HEAD)$) {
        rewrite ^ ${METHOD_NOT_ALLOWED_PAGE.uri} last;
    }
    # velodata serve's key check is nginx's to ask (auth_request), never a client's: the 404 of any
    # unknown path, in any spelling (the URI as nginx normalised it: slashes merged, %XX decoded).
    rewrite ${quote(exactly(KEY_CHECK_PATH))} ${NOT_FOUND_PAGE.uri} last;

    # Not a file of the tree in its canonical spelling: velodata serve answers.
    error_page 418 = @velodata;
    if ($${n}_to_serve) {
        return 418;
    }
    # velodata serve down or restarting (its key check fails: 500; a request handed to it: 502,
    # 504): the API's JSON error, not nginx's HTML page. The request may be one handed over by
    # error_page already.
    recursive_error_pages on;
    error_page 500 502 503 504 = @velodata_unavailable;
    # A request line or headers past what velodata serve takes (16 KB for both together, as
    # Node): its JSON errors, not nginx's HTML pages (494 is nginx's own code for headers too
    # large). One buffer holds them all, a little smaller than Node's limit, so that what nginx
    # hands to serve with its own few headers is never refused there (its 431 would reach the
    # client as the key check's failure, a 503).
    large_client_header_buffers 1 15k;
${clientLimitLines(n, options.clientTimeoutSeconds, options.concurrentPerAddress)}
    error_page 414 = ${URI_TOO_LONG_PAGE.uri};
    error_page 494 = ${HEADERS_TOO_LARGE_PAGE.uri};
    # What nginx refuses before any location (TRACE; a method in lower case, a broken request
    # line): velodata serve's JSON errors too. Its own 400s and 405s reach clients as they are.
    error_page 405 = ${METHOD_NOT_ALLOWED_PAGE.uri};
    error_page 400 = ${MALFORMED_REQUEST_PAGE.uri};
    # And what it refuses that velodata serve never does (see nginxOnly).
${errorPageLines([...FILE_ERROR_PAGES, NOT_IMPLEMENTED_PAGE, VERSION_NOT_SUPPORTED_PAGE], 1)}
    # A request for one of those pages themselves (internal: nginx says 404): serve's answer.
    error_page 404 = @velodata;

    # The answer's file, in the location of its freshness.
    location / {
        rewrite ^ /_velodata/$${n}_freshness$${n}_file last;
    }

    location ^~ /_velodata/dynamic/ {
        internal;
        alias ${quote(`${options.tree}/`)};
${answerFileLines(n)}
        # At the next refresh after the file was written; an answer unchanged since an earlier
        # refresh is sent with no-cache, to be revalidated with its ETag (304). Its scope follows as
        # a second Cache-Control line (clients read them joined: \`max-age=42, private\`).
        expires modified +${options.refreshSeconds}s;
        add_header Cache-Control $${n}_cache_scope;
        add_header Access-Control-Allow-Origin "*";
        add_header Access-Control-Expose-Headers "${EXPOSED_HEADERS}";
        add_header ${NO_SNIFF.name} ${NO_SNIFF.value};
        add_header Content-Disposition $${n}_disposition;
    }

    location ^~ /_velodata/static/ {
        internal;
        alias ${quote(`${options.tree}/`)};
${answerFileLines(n)}
        add_header Cache-Control "$${n}_cache_scope, max-age=${STATIC_MAX_AGE}";
        add_header Access-Control-Allow-Origin "*";
        add_header Access-Control-Expose-Headers "${EXPOSED_HEADERS}";
        add_header ${NO_SNIFF.name} ${NO_SNIFF.value};
        add_header Content-Disposition $${n}_disposition;
    }

    location = /_velodata_auth {
        internal;
        if ($${n}_access != "key") {
            return 204;
        }
        proxy_pass http://${n}_serve${key};
        proxy_set_header ${CHECK_TICKET_HEADER} $request_id;
        ${frontTreeLine(options.tree)}
        # velodata serve counts a wrong key against the client (--max-key-failures) at its check:
        # the address nginx saw, appended to any the client sent (which names no one).
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_pass_request_body off;
        proxy_set_header Content-Length "";
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_cache ${n}_keys;
        proxy_cache_key $${n}_key;
        # A key with a limit is checked at every request: its 204 says X-Accel-Expires: 0.
        proxy_cache_valid 204 ${options.keyCacheSeconds}s;
        proxy_cache_lock on;
        proxy_ignore_headers Cache-Control Expires;
${UPSTREAM_TIMEOUT_LINES.map((line) => `        ${line}`).join("\n")}
    }

    location @velodata {
        # The raw request line: velodata serve applies its own path and query rules to it.
        proxy_pass http://${n}_serve$request_uri;
${handOverLines(n, options.tree)}
    }

    # Not named locations: the request line they answer has no URI, which a named one needs.
${ERROR_PAGES.map(errorPageLocation).join("\n")}
    location = ${PREFLIGHT_URI} {
        internal;
        add_header Access-Control-Allow-Origin "*";
        add_header Access-Control-Expose-Headers "${EXPOSED_HEADERS}";
        add_header ${NO_SNIFF.name} ${NO_SNIFF.value};
        add_header Allow "${ALLOWED_METHODS}";
        add_header Access-Control-Allow-Methods "${ALLOWED_METHODS}";
        add_header Access-Control-Allow-Headers "${PREFLIGHT_ALLOWED_HEADERS}";
        add_header Access-Control-Max-Age "${PREFLIGHT_MAX_AGE}";
        return 204;
    }
    location @velodata_unavailable {
${jsonErrorLines()}
        add_header Retry-After "${SERVE_UNAVAILABLE_RETRY_SECONDS}" always;
        return ${SERVE_UNAVAILABLE.status} ${quote(JSON.stringify({ error: SERVE_UNAVAILABLE.error }))};
    }
}
`;
}

const BROTLI_LINES: Record<NginxOptions["brotli"], string> = {
  on: "brotli_static on;",
  "left-out": "# brotli_static: left out (--no-brotli)",
  "not-enabled":
    "# brotli_static: its module is not enabled here (apt install libnginx-mod-http-brotli-static)",
};

/** The internal location of one of nginx's own JSON error pages. */
function errorPageLocation({ uri, outcome, headers, afterFileHeaders }: OwnErrorPage): string {
  return `    location = ${uri} {
        internal;
${jsonErrorLines(!afterFileHeaders)}
${headers ? `        ${headers}\n` : ""}        return ${outcome.status} ${quote(JSON.stringify({ error: outcome.error }))};
    }
`;
}

/** The headers of nginx's own JSON errors, as velodata serve sends its errors (its type alone). */
function jsonErrorLines(withHeaders = true): string {
  return [
    "# No types here: the URL's extension (.css, .zip, .csv) would name the JSON error's type.",
    "types { }",
    `default_type ${JSON_TYPE};`,
    ...(withHeaders
      ? [
          `add_header Cache-Control "${NOT_STORED_CACHE_CONTROL}" always;`,
          'add_header Access-Control-Allow-Origin "*" always;',
          `add_header Access-Control-Expose-Headers "${EXPOSED_HEADERS}" always;`,
          `add_header ${NO_SNIFF.name} ${NO_SNIFF.value} always;`,
        ]
      : []),
  ]
    .map((line) => `        ${line}`)
    .join("\n");
}

// Where a preflight is answered (internal: a client asking for it gets the 404 of any unknown path).
const PREFLIGHT_URI = "/_velodata/preflight";

/** Whether `version` (`1.26.3`) has `http2 on`, where `listen … http2` is deprecated. */
function hasHttp2Directive(version: string): boolean {
  const [major = 0, minor = 0, patch = 0] = version.split(".").map(Number);
  return major !== 1 ? major > 1 : minor !== 25 ? minor > 25 : patch >= 1;
}

/** `listen` and the line turning HTTP/2 on, in the form the nginx given takes, said in a comment. */
function http2Lines(listen: string, version: string | undefined): string[] {
  if (version === undefined)
    return [
      `listen ${listen} ssl http2;`,
      "# nginx's version unknown: HTTP/2 on `listen`, which every version takes (from 1.25.1 with a",
      "# warning that it is deprecated): regenerate with --nginx-version for `http2 on`.",
    ];
  if (hasHttp2Directive(version))
    return [
      `listen ${listen} ssl;`,
      `# nginx ${version}: \`http2 on\` (from 1.25.1, where \`listen … http2\` is deprecated).`,
      "http2 on;",
    ];
  return [
    `listen ${listen} ssl http2;`,
    `# nginx ${version}: HTTP/2 on \`listen\` (\`http2 on\` is from 1.25.1).`,
  ];
}

/** `listen` (with TLS and HTTP/2 when given certificates) and `server_name`. */
function serverLines(options: NginxOptions): string {
  const lines = options.tls
    ? [
        ...http2Lines(options.listen, options.nginxVersion),
        `ssl_certificate ${quote(options.tls.certificate)};`,
        `ssl_certificate_key ${quote(options.tls.key)};`,
        // Mozilla's "intermediate": the http context's (Debian's nginx.conf) would add TLS 1.0 and
        // 1.1, nginx's own default before 1.23.4 leaves 1.3 out.
        "ssl_protocols TLSv1.2 TLSv1.3;",
        "# Plain HTTP sent to this port: JSON, as nginx's other refusals here.",
        `error_page 497 = ${PLAIN_HTTP_PAGE.uri};`,
      ]
    : [`listen ${options.listen};`];
  if (options.serverNames?.length) lines.push(`server_name ${options.serverNames.join(" ")};`);
  return lines.map((line) => `    ${line}`).join("\n");
}
