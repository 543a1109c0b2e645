// `_headers` and `_redirects` derived from the route table: public rows only, their types and lifetimes.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { build } from "../../../src/commands/build.js";
import { memoryOutput } from "../../../src/commands/output.js";
import {
  HEADERS_FILE,
  headersFile,
  redirectsFile,
} from "../../../src/host/static-host/host-rules.js";
import type { AnyRoute } from "../../../src/routes/route.js";
import { ROUTE_LIST } from "../../../src/routes/routes.js";
import { filesUnder } from "../../../src/tree/files-under.js";
import { FIXTURES, tempDir } from "../../helpers.js";

/** A `_headers` path rule as Cloudflare Pages and Netlify read it: `:name` one segment, `*` anything. */
function ruleMatcher(rule: string): RegExp {
  const parts = rule.split(/(:\w+|\*)/).map((part) => {
    if (part === "*") return ".*";
    if (part.startsWith(":")) return "[^/]+";
    return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  });
  return new RegExp(`^${parts.join("")}$`);
}

const row = (extra: Partial<AnyRoute>): AnyRoute => ({
  name: "feed",
  summary: "",
  tag: "gbfs",
  path: "/gbfs/{contract}/gbfs",
  params: { contract: { kind: "contract" } },
  access: "public",
  freshness: "dynamic",
  served: "release",
  contentType: "application/json",
  ...extra,
});

describe("static host rules", () => {
  it("give every public download its type, CORS, nosniff and cache lifetime, and leave keyed answers out", () => {
    const headers = headersFile(ROUTE_LIST);
    expect(headers).toContain(
      "/rest/vls/stations/*.csv\n  Content-Type: text/csv; charset=utf-8\n  Access-Control-Allow-Origin: *\n  Access-Control-Expose-Headers: ETag, Retry-After, Content-Disposition, Content-Range\n  X-Content-Type-Options: nosniff\n  Cache-Control: public, max-age=3600",
    );
    expect(headers).toContain("/openapi.json\n  Content-Type: application/json");
    // The bundle is saved, not shown, under its own name; nothing else is.
    expect(headers).toMatch(
      /\n\/download\/velodata-static\.zip\n {2}Content-Type: application\/zip\n(?: {2}.*\n)* {2}Content-Disposition: attachment; filename="velodata-static\.zip"\n/,
    );
    expect(headers.match(/ Content-Disposition:/g)).toHaveLength(1);
    // A folder's page by the URL asked for as well as its file: hosts match rules on the URL.
    for (const page of ["/", "/index.html", "/docs/", "/docs/index.html"])
      expect(headers).toContain(`\n${page}\n  Content-Type: text/html; charset=utf-8\n`);
    expect(headers).not.toMatch(/^\/(vls|parking)\//m);
  });

  it("cover public rows added later (GBFS feeds): a dynamic lifetime and a rewrite to the .json file", () => {
    expect(headersFile([row({})])).toContain(
      "/gbfs/:contract/gbfs.json\n  Content-Type: application/json\n  Access-Control-Allow-Origin: *\n  Access-Control-Expose-Headers: ETag, Retry-After, Content-Disposition, Content-Range\n  X-Content-Type-Options: nosniff\n  Cache-Control: public, max-age=60",
    );
    expect(redirectsFile([row({})])).toContain(
      "/gbfs/:contract/gbfs  /gbfs/:contract/gbfs.json  200",
    );
    expect(redirectsFile([row({ access: "key" })])).not.toContain("/gbfs/");
  });

  it("match each file of a built tree once at most: hosts join the headers of every rule that matches", async () => {
    const out = join(await tempDir(), "out");
    await build({ source: FIXTURES, out, output: memoryOutput() });
    const text = await readFile(join(out, HEADERS_FILE), "utf8");
    const rules = text.split("\n").filter((line) => line.startsWith("/"));
    const matchers = rules.map((rule) => [rule, ruleMatcher(rule)] as const);
    const files = filesUnder(out).map((file) => `/${file}`);
    const twice = files
      .map((file) => ({ file, rules: matchers.filter(([, m]) => m.test(file)).map(([r]) => r) }))
      .filter(({ rules }) => rules.length > 1);
    expect(twice).toEqual([]);
    // Every public feed is covered, station_status with the dynamic lifetime.
    const status = "/contracts/dublin/gbfs/v3/station_status.json";
    const block = text
      .split("\n\n")
      .find((b) => ruleMatcher(b.split("\n")[0] as string).test(status));
    expect(block).toContain("Cache-Control: public, max-age=60");
    expect(files).toContain(status);
  });
});
