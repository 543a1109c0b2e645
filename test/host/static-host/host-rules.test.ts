// `_headers` and `_redirects` derived from the route table: public rows only, their types and lifetimes.
import { describe, expect, it } from "vitest";
import { headersFile, redirectsFile } from "../../../src/host/static-host/host-rules.js";
import type { AnyRoute } from "../../../src/routes/route.js";
import { ROUTE_LIST } from "../../../src/routes/routes.js";

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
  it("give every public download its type, CORS and cache lifetime, and leave keyed answers out", () => {
    const headers = headersFile(ROUTE_LIST);
    expect(headers).toContain(
      "/rest/vls/stations/*.csv\n  Content-Type: text/csv; charset=utf-8\n  Access-Control-Allow-Origin: *\n  Cache-Control: public, max-age=3600",
    );
    expect(headers).toContain("/openapi.json\n  Content-Type: application/json");
    expect(headers).not.toMatch(/^\/(vls|parking)\//m);
  });

  it("cover public rows added later (GBFS feeds): a dynamic lifetime and a rewrite to the .json file", () => {
    expect(headersFile([row({})])).toContain(
      "/gbfs/:contract/gbfs.json\n  Content-Type: application/json\n  Access-Control-Allow-Origin: *\n  Cache-Control: public, max-age=60",
    );
    expect(redirectsFile([row({})])).toContain(
      "/gbfs/:contract/gbfs  /gbfs/:contract/gbfs.json  200",
    );
    expect(redirectsFile([row({ access: "key" })])).not.toContain("/gbfs/");
  });
});
