// The nginx configuration is derived from the route table: every file-answered row, its type, no key in logs.
import { describe, expect, it } from "vitest";
import { nginxConfig } from "../../../src/host/nginx/nginx-config.js";
import { typesOf } from "../../../src/routes/extension-types.js";
import type { AnyRoute } from "../../../src/routes/route.js";
import { ROUTE_LIST, ROUTES } from "../../../src/routes/routes.js";

const options = {
  name: "velodata",
  tree: "/srv/velodata/out",
  upstream: new URL("http://127.0.0.1:8080"),
  listen: "80",
  cacheDir: "/var/cache/nginx/velodata",
  keyCacheSeconds: 5,
  clientTimeoutSeconds: 10,
  concurrentPerAddress: 32,
  refreshSeconds: 60,
  accessLog: "/var/log/nginx/velodata-access.log",
  brotli: "on" as const,
  generatedBy: "test",
};

describe("nginx configuration", () => {
  const config = nginxConfig(ROUTE_LIST, options);

  it("has one answer line per path and query form of every row the tree answers", () => {
    const lines = config.split("\n").filter((line) => line.includes('"~^(?:GET|HEAD):'));
    const forms = ROUTE_LIST.filter((route) => route.served === "release").reduce(
      (count, route) => count + (route.query ? 2 : 1),
      0,
    );
    expect(lines).toHaveLength(forms);
    expect(config).not.toContain("/status");
  });

  it("sends every GBFS file from the location of the answers kept until the next refresh, the API's static answers from the other", () => {
    const values = config
      .split("\n")
      .filter((line) => line.includes('"~^(?:GET|HEAD):'))
      .map((line) => line.slice(line.lastIndexOf(' "') + 2, -2));
    const gbfs = values.filter((value) => value.includes("/gbfs/"));
    // Per version and form (v2.3, its v2 folder, v3.0): discovery, station_status, {feed}; the manifest.
    expect(gbfs).toHaveLength(3 * 3 + 1);
    for (const value of gbfs) expect(value).toMatch(/^public dynamic \//);
    expect(values).toContain("key static /vls/v3/contracts.json");
    expect(values).toContain("public static /openapi.json");
  });

  it("types each file by its row, and refuses an extension with two types", () => {
    expect(config).toContain('"text/csv; charset=utf-8" csv;');
    expect(config).toContain('"application/zip" zip;');
    const clash = { ...(ROUTE_LIST[0] as AnyRoute), path: "/x.csv", contentType: "text/plain" };
    expect(() => typesOf([...ROUTE_LIST, clash])).toThrow(/\.csv files are both/);
  });

  it("logs the path without the query string, and caches key checks for the time asked", () => {
    expect(config).toMatch(
      /log_format velodata .*"\$request_method \$velodata_path\$velodata_logged_contract"/,
    );
    expect(config).not.toMatch(/log_format[^;]*\$request[ "']/);
    expect(config).not.toMatch(/log_format[^;]*\$(args|request_uri|query_string)/);
    expect(config).toContain("proxy_cache_valid 204 5s;");
    expect(config).toContain("brotli_static on;");
    const absent = nginxConfig(ROUTE_LIST, { ...options, brotli: "not-enabled" });
    expect(absent).not.toContain("brotli_static on;");
    expect(absent).toContain(
      "    # brotli_static: its module is not enabled here (apt install libnginx-mod-http-brotli-static)\n",
    );
    const leftOut = nginxConfig(ROUTE_LIST, { ...options, brotli: "left-out" });
    expect(leftOut).not.toContain("brotli_static on;");
    expect(leftOut).toContain("    # brotli_static: left out (--no-brotli)\n");
  });

  it("keeps a key check's file, which names the key, no longer than its answer is valid", () => {
    const cachePath = (keyCacheSeconds: number) =>
      /\nproxy_cache_path [^;]*;/.exec(
        nginxConfig(ROUTE_LIST, { ...options, keyCacheSeconds }),
      )?.[0];
    expect(cachePath(5)).toContain(" inactive=5s ");
    expect(cachePath(1)).toContain(" inactive=1s ");
    // nginx's cache manager looks every 10 s at the latest: the comment says the whole time.
    expect(config).toContain(
      "# its key: inactive as long as the answer is valid, so that nginx's cache manager removes it within\n# 11 s of the key's last request",
    );
  });

  it("answers any method but GET, HEAD and OPTIONS itself with the 405 page, before handing anything on", () => {
    const server = config.split("\nserver {")[1] as string;
    const refused = server.indexOf(
      "    if ($request_method !~ ^(?:GET|HEAD)$) {\n        rewrite ^ /_velodata_method_not_allowed last;\n    }\n",
    );
    expect(refused).toBeGreaterThan(server.indexOf("if ($request_method = OPTIONS)"));
    expect(refused).toBeLessThan(server.indexOf("return 418;"));
    expect(refused).toBeLessThan(server.indexOf('rewrite "^/_velodata/key-check$"'));
  });

  it("bounds how long a request's head and body may take, and each address's requests in progress", () => {
    const [http, server = ""] = config.split("\nserver {");
    expect(http).toContain("\nlimit_conn_zone $binary_remote_addr zone=velodata_addresses:10m;\n");
    for (const line of [
      "client_header_timeout 10s;",
      "client_body_timeout 10s;",
      "limit_conn velodata_addresses 32;",
      "limit_conn_status 429;",
      "error_page 429 = /_velodata_too_many_requests;",
    ])
      expect(server, line).toContain(`\n    ${line}\n`);
    // The file locations set error pages of their own: the 429's is among them.
    const located = server.split("location ").filter((block) => block.includes("auth_request "));
    for (const block of located)
      expect(block).toContain("error_page 429 = /_velodata_too_many_requests;");
    const unlimited = nginxConfig(ROUTE_LIST, { ...options, concurrentPerAddress: 0 });
    expect(unlimited).not.toMatch(/limit_conn(_zone)? /);
    expect(unlimited).toContain("\n    client_header_timeout 10s;\n");
    const named = nginxConfig(ROUTE_LIST, { ...options, name: "city_b", clientTimeoutSeconds: 3 });
    expect(named).toContain("zone=city_b_addresses:10m;");
    expect(named).toContain("\n    limit_conn city_b_addresses 32;\n");
    expect(named).toContain("\n    client_header_timeout 3s;\n");
  });

  it("names the client by its key's id from the key check, in both keyed locations", () => {
    expect(config).toMatch(/log_format velodata '\$remote_addr - \$velodata_client \[/);
    const located = config.split("location ").filter((block) => block.includes("auth_request "));
    expect(located.map((block) => block.split(" ")[1])).toEqual([
      "/_velodata/dynamic/",
      "/_velodata/static/",
    ]);
    for (const block of located)
      expect(block).toContain(
        "auth_request_set $velodata_key_id $upstream_http_x_velodata_key_id;",
      );
  });

  it("sends the bundle's Content-Disposition from its file, and refuses one for a path with parameters", () => {
    expect(config).toContain(
      '"/download/velodata-static.zip" "attachment; filename=\\"velodata-static.zip\\"";',
    );
    expect(config.match(/add_header Content-Disposition \$velodata_disposition;/g)).toHaveLength(2);
    const withParameter = {
      ...ROUTES.staticStationsCsv,
      path: "/x/{contract}.csv",
      attachment: "x.csv",
    };
    expect(() => nginxConfig([...ROUTE_LIST, withParameter], options)).toThrow(
      /a file to save must have a path without parameters/,
    );
  });

  it("begins every http-level name with the instance's name, so that two load in one nginx", () => {
    const named = nginxConfig(ROUTE_LIST, { ...options, name: "city_b" });
    // Variables, captures, the log format, the upstream and the key cache's zone.
    expect(named).not.toMatch(/[$<{]velodata_|log_format velodata|velodata_serve|velodata_keys/);
    expect(named).not.toMatch(/ velodata;/);
    expect(named).toContain("map $request_method:$request_uri $city_b_answer {");
    expect(named).toContain("(?<city_b_contract>");
    expect(named).toMatch(/\nlog_format city_b '/);
    expect(named).toContain("keys_zone=city_b_keys:");
    expect(named).toContain("proxy_cache city_b_keys;");
    expect(named).toContain("upstream city_b_serve {");
    expect(named).toContain("proxy_pass http://city_b_serve$request_uri;");
    expect(named).toContain('access_log "/var/log/nginx/velodata-access.log" city_b;');
  });

  it("takes TLS 1.2 and 1.3 only, in its own server block, and TLS only with certificates", () => {
    const tls = { certificate: "/etc/ssl/cert.pem", key: "/etc/ssl/key.pem" };
    const server = nginxConfig(ROUTE_LIST, { ...options, listen: "443", tls }).split(
      "\nserver {",
    )[1];
    expect(server).toContain("\n    ssl_protocols TLSv1.2 TLSv1.3;\n");
    expect(config).not.toContain("ssl_protocols");
  });

  it("turns HTTP/2 on in the form the nginx it is for takes, and says which", () => {
    const tls = { certificate: "/etc/ssl/cert.pem", key: "/etc/ssl/key.pem" };
    const forVersion = (nginxVersion?: string) =>
      nginxConfig(ROUTE_LIST, {
        ...options,
        listen: "443",
        tls,
        ...(nginxVersion ? { nginxVersion } : {}),
      });
    for (const recent of ["1.25.1", "1.26.3", "1.27.0", "2.0.0"]) {
      const config = forVersion(recent);
      expect(config, recent).toContain("\n    listen 443 ssl;\n");
      expect(config, recent).toContain("\n    http2 on;\n");
      expect(config, recent).toContain(`# nginx ${recent}: `);
    }
    for (const older of ["1.22.1", "1.25.0", "1.18.0"]) {
      const config = forVersion(older);
      expect(config, older).toContain("\n    listen 443 ssl http2;\n");
      expect(config, older).not.toContain("http2 on;");
      expect(config, older).toContain(`# nginx ${older}: `);
    }
    const unknown = forVersion();
    expect(unknown).toContain("\n    listen 443 ssl http2;\n");
    expect(unknown).toContain("# nginx's version unknown: ");
  });
});
